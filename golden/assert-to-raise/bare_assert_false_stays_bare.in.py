# golden-args: --unsafe-fixes
import subprocess


def convert(script):
    proc = subprocess.run(["python3", "-c", script], capture_output=True)
    if proc.returncode != 0:
        print("Error", proc.stderr.decode())
        assert False
    if not proc.stdout:
        assert False, "no output"
    return proc.stdout
