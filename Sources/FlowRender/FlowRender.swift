// FlowRender: see README.md
