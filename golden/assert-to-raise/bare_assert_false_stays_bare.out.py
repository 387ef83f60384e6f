# golden-args: --unsafe-fixes
import subprocess


def convert(script):
    proc = subprocess.run(["python3", "-c", script], capture_output=True)
    if proc.returncode != 0:
        print("Error", proc.stderr.decode())
        raise AssertionError
    if not proc.stdout:
        raise AssertionError("no output")
    return proc.stdout
