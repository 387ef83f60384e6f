from setuptools import setup

setup(name="dpkit", version="0.1", packages=["dpkit"], install_requires=["torch==1.5.0"])
