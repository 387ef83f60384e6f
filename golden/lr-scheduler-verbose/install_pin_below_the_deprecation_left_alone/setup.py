from setuptools import find_packages, setup

setup(
    name="trainer",
    version="0.3.1",
    packages=find_packages(),
    # pip installs exactly this torch for the package's users: verbose= works there
    install_requires=["numpy==1.19.5", "torch==1.9.0"],
)
