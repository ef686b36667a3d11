import DetentCLI

Detent.main()
