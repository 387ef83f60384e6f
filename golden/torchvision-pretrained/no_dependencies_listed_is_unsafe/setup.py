from setuptools import find_packages, setup

# no install_requires: nothing says which torch or torchvision the package runs
setup(name="torchnn", version="0.1", packages=find_packages())
