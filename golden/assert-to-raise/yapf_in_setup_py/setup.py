from setuptools import setup

setup(name='mbrlkit', install_requires=['numpy', 'yapf==0.29.0'])
