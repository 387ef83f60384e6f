from setuptools import setup

setup(name="vidlib", install_requires=["numpy", "fvcore"])
