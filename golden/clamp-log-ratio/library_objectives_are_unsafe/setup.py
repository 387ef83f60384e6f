from setuptools import find_packages, setup

setup(name="rlkit", version="0.1", packages=find_packages(), install_requires=["torch>=2.0"])
