from setuptools import find_packages, setup

# torch-print-summary 0.1 (round 50): `install_requires=[]`, and Python 3.7 in its
# classifiers. Python 3.7's newest torch is 1.13, a bound on what its users can have, not
# a floor: nothing says which torch or torchvision the package runs.
setup(
    name="torchnn",
    version="0.1",
    packages=find_packages(),
    install_requires=[],
    python_requires=">=3.7",
    classifiers=["Programming Language :: Python :: 3.7"],
)
