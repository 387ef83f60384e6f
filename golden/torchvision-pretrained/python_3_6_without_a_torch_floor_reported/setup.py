from setuptools import setup

setup(name="fasterrcnn", install_requires=["numpy"], python_requires=">=" + "3.6")
