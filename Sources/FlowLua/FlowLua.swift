// FlowLua: see README.md
