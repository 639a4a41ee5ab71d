// FlowModule: see README.md
