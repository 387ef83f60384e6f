from torchfix.cli import main

main()
