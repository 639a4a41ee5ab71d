-- The Lua API of FlowScript as data: the single source of the reference.
--
-- scripts/gen-docs renders this table into docs/lua-api.md (the reference),
-- docs/flow.meta.lua (LuaLS annotations for editors) and
-- Sources/FlowSession/HelpEntries.swift (the entries `help` prints in flowrepl).
-- scripts/check-api compares its names with the contract (docs/api/contract-names.txt)
-- and with what the built module binds. Edit this file, then run scripts/gen-docs.
--
-- Shape:
--   { title =, intro =, sections = { { id =, title =, text =, entries = { entry, ... } }, ... } }
-- An entry:
--   name     as scripts and `help` spell it: "flow.newStore", "Store:addNode" (method),
--            "Store.nodeCount" (field), "Node" (type), "Point" (value shape), "help" (global)
--   kind     "function" | "method" | "field" | "callback" | "type" | "value"
--   summary  one line
--   text     the description (optional); indentation is removed, paragraphs are
--            separated by blank lines, lines stay as written (at most 90 columns)
--   params   { { "name", "LuaLS type", "description", default = "..." }, ... };
--            a name ending in "?" is optional. For a callback: what the store passes it.
--   returns  { { "LuaLS type", "description", name = "..." }, ... }
--   result   the returns in words for the signature line of `help` (derived if absent)
--   type     (field, value) the LuaLS type of the value
--   fields   (type: a table shape) { { "name", "LuaLS type", "description", default = }, ... }
--   values   (type: a string enum) { { "value", "description" }, ... }
--   alias    (type: an alias) a LuaLS type expression
--   extends  (type: a table shape) the shape it adds fields to
--   label    (value, type) the word shown in parentheses after the name in `help`
--   example  Lua code (optional)
--   repl     true for the globals that only flowrepl defines
--   planned  true for names not defined yet (documented in help and the reference, marked
--            as planned, left out of the annotations)
-- Store, Node and Edge are types without fields: their members are the entries named
-- "Store.x" / "Store:x". Order is kept as written: sections, then entries.

return {
  title = "The flow Lua API",
  intro = [[
    The reference of the `flow` module: every function of the module, every method and
    field of `Store`, `Node` and `Edge`, the configuration keys, the tables the API takes
    and returns, and the globals of `flowrepl`. It follows the contract section by section.]],

  sections = {
    ---------------------------------------------------------------------------------------
    {
      id = "conventions",
      title = "Conventions and values",
      text = [[
        Load the module with `local flow = require "flow"`; `flowrepl` has it as the global
        `flow` already. Names are camelCase and mirror the Swift store.

        Errors come in two kinds. Misuse raises a Lua error and leaves the store exactly as
        it was, because every operation is atomic: wrong argument types give Lua's own
        message (`bad argument #2 to 'moveNode' (number expected, got string)`), bad values
        name the function and the problem (`moveNode: no node with id 'x'`). Failures a
        script can expect, such as an unreadable file or a malformed document, return
        `nil, message` instead, like `io.open`.

        Every list the API returns, and every batch of change events, is in store order:
        the order in which nodes and edges were added. `tostring` of an object never shows
        an address, and numbers print without float noise.

        Every object that holds something ends its life the same way: `close()` (Store,
        Workspace, Observer), which a `<close>` variable calls at the end of its scope, or
        the collector. Closing twice does nothing. A closed Store or Workspace raises
        `attempt to use a closed Store` (`... Workspace`) on every call; a stopped Observer
        holds nothing and stays readable.

        Reading and writing a format are named in pairs and take the same `{format = ...}`
        option: `flow.decode(text)` / `store:encode()` for text, `flow.open(path)` /
        `store:save(path)` for files. Deprecated names keep working: `store:export()` is
        `store:encode()`, `store:dot()` is `store:encode{format = "dot"}`,
        `store:mermaid()` is `store:encode{format = "mermaid"}`.

        Coordinates are canvas coordinates unless an entry says screen coordinates:
        screen = canvas * zoom + offset.]],
      entries = {
        {
          name = "FlowID", kind = "type", alias = "string|integer",
          summary = "An id of a node, edge or handle: a string.",
          text = [[
            Ids are strings. Where an id is expected, a number is accepted and converted to
            its string form: `store:node(1)` looks up the node `"1"`. An id must be valid
            UTF-8. Canonically equivalent spellings (`"e\u{301}"` and `"\u{E9}"`) are one
            id, and the store keeps and hands out its composed form (NFC) everywhere.]],
        },
        {
          name = "Point", kind = "type",
          summary = "A point: {x=, y=}.",
          fields = {
            { "x", "number", "horizontal coordinate" },
            { "y", "number", "vertical coordinate" },
          },
          text = [[
            Where an argument is a point, two numbers `x, y` are accepted instead of the
            table. Points the API returns are always tables. Coordinates and sizes are at
            most 1e15 in magnitude (a larger one raises), so every store can be exported.]],
        },
        {
          name = "Size", kind = "type",
          summary = "A size: {width=, height=}.",
          fields = {
            { "width", "number", "horizontal extent" },
            { "height", "number", "vertical extent" },
          },
          text = [[
            Where an argument is a size, two numbers `width, height` are accepted instead of
            the table. Sizes the API returns are always tables.]],
        },
        {
          name = "Rect", kind = "type",
          summary = "A rectangle: {x=, y=, width=, height=}; x, y is the top-left corner.",
          fields = {
            { "x", "number", "left edge" },
            { "y", "number", "top edge" },
            { "width", "number", "horizontal extent" },
            { "height", "number", "vertical extent" },
          },
        },
        {
          name = "HandleType", kind = "type",
          summary = "Whether a handle starts or ends edges.",
          values = {
            { "source", "edges leave the node here" },
            { "target", "edges arrive at the node here" },
          },
        },
        {
          name = "HandlePosition", kind = "type",
          summary = "The side of a node a handle sits on.",
          values = {
            { "top", "the middle of the top side" },
            { "bottom", "the middle of the bottom side" },
            { "left", "the middle of the left side" },
            { "right", "the middle of the right side" },
            { "center", "the centre of the node" },
          },
        },
        {
          name = "EdgePathType", kind = "type",
          summary = "The shape of an edge's path.",
          values = {
            { "bezier", "a cubic curve leaving and entering along the handle sides" },
            { "straight", "a straight line" },
            { "smoothStep", "horizontal and vertical runs with rounded corners" },
            { "simpleBezier", "a quadratic curve" },
            { "orthogonal", "routed by the store around the nodes: horizontal and vertical runs with rounded corners" },
          },
        },
        {
          name = "NodeShape", kind = "type",
          summary = "The outline a node is drawn with; hit testing and handles follow it.",
          values = {
            { "rounded", "a rectangle with rounded corners (the default)" },
            { "rectangle", "a rectangle" },
            { "diamond", "a rhombus touching the middles of the frame's sides (a decision)" },
            { "ellipse", "an ellipse filling the frame" },
            { "circle", "a circle as wide as the frame's smaller side, centred" },
            { "hexagon", "a hexagon with points at the left and right" },
            { "parallelogram", "a parallelogram leaning right (input, output)" },
            { "cylinder", "a cylinder (a database)" },
            { "document", "a page with a wavy bottom" },
            { "stadium", "a rectangle with half circles at its ends (a start or end)" },
            { "note", "a page with a folded corner" },
            { "record", "a rectangle split into fields: the title in Graphviz's record syntax (`<port> a | { b | c }`)" },
            { "mrecord", "a record with rounded corners" },
            { "doublecircle", "a circle inside a circle (an accepting state)" },
            { "triangle", "a triangle pointing up" },
            { "invtriangle", "a triangle pointing down" },
            { "house", "a pentagon with a pointed top" },
            { "invhouse", "a pentagon with a pointed bottom" },
            { "trapezium", "a trapezium, narrower at the top" },
            { "invtrapezium", "a trapezium, narrower at the bottom" },
            { "pentagon", "a regular pentagon stretched to the frame" },
            { "septagon", "a regular heptagon stretched to the frame" },
            { "octagon", "a regular octagon stretched to the frame" },
            { "doubleoctagon", "an octagon inside an octagon" },
            { "tripleoctagon", "three octagons, one inside the other" },
            { "plain", "no outline: the title alone" },
            { "msquare", "a rectangle with its corners cut by short lines" },
            { "mdiamond", "a diamond with its tips cut by short lines" },
            { "box3d", "a box drawn in three dimensions" },
            { "component", "a rectangle with two small boxes on its left side (a UML component)" },
            { "tab", "a rectangle with a small tab in its top left corner" },
            { "folder", "a rectangle with a folder's tab on top" },
            { "subroutine", "a rectangle with a line inside each side (Mermaid's `[[text]]`)" },
            { "asymmetric", "a flag: a rectangle with a notch in its left side (Mermaid's `>text]`)" },
          },
        },
        {
          name = "ArrowHead", kind = "type",
          summary = "What is drawn at an end of an edge.",
          values = {
            { "none", "nothing" },
            { "arrow", "a filled arrowhead (the default at the target)" },
            { "open", "an open arrowhead, two strokes" },
            { "diamond", "a filled diamond" },
            { "circle", "a filled circle" },
            { "hollowArrow", "an outlined arrowhead" },
            { "hollowDiamond", "an outlined diamond" },
            { "hollowCircle", "an outlined circle" },
            { "hollowBox", "an outlined square" },
            { "hollowInv", "an outlined arrowhead pointing back at the line" },
            { "inv", "a filled arrowhead pointing back at the line" },
            { "vee", "a filled chevron" },
            { "tee", "a bar across the line" },
            { "crow", "a crow's foot: three strokes spreading towards the node" },
            { "box", "a filled square" },
            { "cross", "an X across the line" },
          },
        },
        {
          name = "Style", kind = "type",
          summary = "How a node, an edge or a class looks: every key is optional.",
          fields = {
            { "fill?", "string", "node: inside of the shape; edge: the label's box (`#rrggbb` or `#rrggbbaa`)" },
            { "stroke?", "string", "node: the outline; edge: the line and its arrowheads" },
            { "strokeWidth?", "number", "width of the outline or line (canvas units, not negative)" },
            { "dash?", "number[]", "dash pattern of the outline or line; `{}` for solid" },
            { "opacity?", "number", "opacity of the whole node or edge, from 0 to 1" },
            { "textColor?", "string", "colour of the title or label" },
            { "fontSize?", "number", "size of the title or label (canvas units, positive, at most 10000)", default = "12" },
            { "bold?", "boolean", "bold title or label" },
            { "italic?", "boolean", "italic title or label" },
            { "wrapWidth?", "number", "nodes only: where the title of a node sized to its text wraps",
              default = "200" },
            { "sourceArrow?", "ArrowHead", "edges only: what is drawn where the edge leaves", default = '"none"' },
            { "targetArrow?", "ArrowHead", "edges only: what is drawn where the edge arrives", default = '"arrow"' },
          },
          text = [[
            An element's own `style` wins over its classes (`class`), a class later in the
            element's list over an earlier one, and classes over the picture's theme. Colours
            are `#rrggbb` or `#rrggbbaa`; a bad colour, a number out of range or an unknown key
            raises, naming the field (`addNode: style.fill: invalid colour 'blue' (expected
            #rrggbb or #rrggbbaa)`). Selection, hover, drop targets and drafts still show: they
            set the outline (and a drop target's fill) over any style.]],
        },
        {
          name = "Placement", kind = "type",
          summary = "The side of its anchor an accessory is placed on.",
          values = {
            { "top", "above" },
            { "bottom", "below" },
            { "leading", "to the left" },
            { "trailing", "to the right" },
          },
        },
        {
          name = "BackgroundPattern", kind = "type",
          summary = "The canvas background drawn behind the diagram.",
          values = {
            { "none", "a plain background" },
            { "grid", "grid lines" },
            { "dot", "a dot at every grid point" },
          },
        },
      },
    },

    ---------------------------------------------------------------------------------------
    {
      id = "module",
      title = "Module",
      text = [[
        The module table holds the constructors, the version, `flow.type`, `flow.null` and
        `flow.sandbox`.
        A store is configured when it is created and can be reconfigured later; the
        configuration keys are the fields of `Config`.]],
      entries = {
        {
          name = "flow", kind = "value", label = "module",
          summary = "The FlowScript module: `local flow = require \"flow\"`.",
          text = [[
            flowrepl preloads it as the global `flow`. Fields: flow.newStore, flow.open,
            flow.decode, flow.observe, flow.workspace, flow.version, flow.type, flow.null,
            flow.sandbox.]],
        },
        {
          name = "flow.newStore", kind = "function",
          summary = "Creates an empty store.",
          params = {
            { "config?", "Config", "configuration keys; every key is optional" },
          },
          returns = { { "Store", "the new store" } },
          text = [[
            Keys that are not given take their defaults (see `Config`). An unknown key
            raises an error, so a misspelt key never passes silently.]],
          example = [[
            local flow = require "flow"
            local s = flow.newStore{ snapToGrid = true, gridSize = 10 }
            print(s)  --> Store (0 nodes, 0 edges)]],
        },
        {
          name = "flow.open", kind = "function",
          summary = "Reads a document, a DOT graph or a Mermaid flowchart from a file into a new store.",
          params = {
            { "path", "string", "the file to read; the extension picks the format" },
            { "opts?", "LoadOptions", "the format (instead of the extension's) and limits" },
          },
          returns = {
            { "Store?", "the store holding the document", name = "store" },
            { "string[]|string", "the load warnings (as for `flow.decode`), or why it failed", name = "warnings" },
          },
          result = "Store and warnings, or nil and a message",
          text = [[
            `.dot` and `.gv` files are read as DOT, `.mmd` and `.mermaid` files as Mermaid,
            anything else as a JSON document of the shape `store:export` writes (see
            `flow.decode` for the warnings). A file that cannot be read, that is not valid
            UTF-8 (the message names the offset of the first bad byte), or that does not
            hold a document or graph, gives `nil, message`; it does not raise. A path with a
            NUL byte raises.]],
          example = [[
            local s, err = flow.open("diagram.json")
            if not s then print(err) end
            local g, warnings = flow.open("graph.dot")
            for _, w in ipairs(warnings or {}) do print("not mapped: " .. w) end]],
        },
        {
          name = "flow.decode", kind = "function",
          summary = "Makes a new store from a JSON document, DOT or Mermaid string.",
          params = {
            { "text", "string", "the document text" },
            { "opts?", "LoadOptions", "the format of the text", default = '{ format = "json" }' },
          },
          returns = {
            { "Store?", "the new store", name = "store" },
            { "string[]|string", "the load warnings, or the error message", name = "warnings" },
          },
          result = "Store and warnings, or nil and a message",
          text = [[
            It is `store:load(text, opts)` on a fresh store: on success it returns the store
            and the array of warnings that `load` reports (possibly empty); text that does
            not parse, or a document of the wrong shape, gives `nil, message`. The new
            store's zoom limits take in the document's zoom, so `flow.decode(s:export())`
            gives back the viewport `s` had, even outside the default limits.]],
          example = [[
            local s, warnings = flow.decode(old:export())
            assert(s, warnings)
            for _, w in ipairs(warnings) do print("repaired: " .. w) end]],
        },
        {
          name = "flow.version", kind = "field", type = "string",
          summary = "The semantic version of the package, e.g. \"0.1.0\".",
        },
        {
          name = "flow.type", kind = "function",
          summary = "The flow type of x: \"Store\", \"Node\" or \"Edge\" for a flow object, else nil.",
          params = { { "x", "any" } },
          returns = { { "string?" } },
          result = "string or nil",
          text = [[
            Like io.type. It never raises for a value of another type; `flow.null` is not a
            flow object.]],
          example = [[
            flow.type(s)            --> "Store"
            flow.type(s:node("a"))  --> "Node"
            flow.type({})           --> nil]],
        },
        {
          name = "flow.null", kind = "value", type = "userdata",
          summary = "A unique value that stands for JSON null inside tables and clears fields.",
          text = [[
            Inside data, {1, flow.null, 3} is a 3-element array. In a patch it clears an
            optional field (`parentID`, `label`, `data`). tostring gives "flow.null";
            type() is "userdata"; flow.type(flow.null) is nil.]],
          example = [[
            s:updateNode("a", { parentID = flow.null })  -- move "a" to the root]],
        },
        {
          name = "SandboxLimits", kind = "type",
          summary = "The limits of flow.sandbox: the state's, and those of every store it makes.",
          fields = {
            { "memory?", "integer", "bytes the code may allocate beyond the fresh state (default 64 MiB)" },
            { "instructions?", "integer", "Lua VM instructions per call (default 100000000)" },
            { "seconds?", "number", "seconds per call (default 10)" },
            { "patternSteps?", "number", "worst-case steps of one pattern-matching call (default 1e8)" },
            { "nodes?", "integer", "nodes per store (default 100000)" },
            { "edges?", "integer", "edges per store (default 100000)" },
            { "labelBytes?", "integer", "bytes of a node title or an edge label (default 10000)" },
            { "pictureBytes?", "integer", "bytes of one store:svg() picture (default 64 MiB)" },
          },
          text = [[
            Every key is optional; 0 turns a limit off; a negative value or an unknown key
            is an error.]],
        },
        {
          name = "flow.sandbox", kind = "function",
          summary = "Runs Lua code you did not write in a fresh sandboxed state, within limits.",
          params = {
            { "code", "string", "Lua source (text only: a binary chunk is refused)" },
            { "limits?", "SandboxLimits", "memory, instructions, seconds, patternSteps, nodes, edges, labelBytes, pictureBytes; 0 turns one off" },
          },
          returns = {
            { "true|nil", "true when the code ran to its end, nil when it failed", name = "ok" },
            { "any", "its results (nil, booleans, numbers and strings), or the error message", name = "..." },
          },
          result = "true and the results, or nil and the error message",
          text = [[
            The code runs in a state of its own with the sandbox's libraries (docs/sandbox.md):
            no io, package, require, debug, dofile, loadfile; os only clock, time and date;
            no flow.open, Store:save or flow.sandbox; collectgarbage only "collect", "count",
            "step" and "isrunning"; setmetatable refuses a metatable with __gc, getmetatable
            gives nil for flow's objects. Limits and their defaults: `memory` (bytes beyond the
            fresh state, the nodes and edges of its stores included, 64 MiB), `instructions`
            (per call, 100000000), `seconds` (per call, long Swift calls included,
            10), `patternSteps` (the worst case one string.find/match/gmatch/gsub call may
            take, 1e8; a costlier call is refused before it runs), and for every store the code
            makes `nodes` (100000), `edges` (100000), `labelBytes` (a node title or an edge
            label, 10000) and `pictureBytes` (one store:svg(), 64 MiB): a call that goes past
            a store limit is rolled back and raises naming itself. Exceeding a limit ends
            the code with an error such as "sandbox: memory limit exceeded (65536 bytes)",
            returned as nil and the message; the caller's state is untouched and goes on.
            Its `print` output goes where the caller's does; its globals and stores are
            gone when the call returns. Bad arguments raise.]],
          example = [[
            flow.sandbox("return 6 * 7")                       --> true  42
            flow.sandbox("while true do end", { instructions = 1e6 })
            --> nil  "(sandbox):1: sandbox: instruction limit exceeded (1000000 instructions)"
            flow.sandbox("return io")                          --> true  nil]],
        },
        {
          name = "Config", kind = "type",
          summary = "The configuration of a store: every key is optional and has a default.",
          fields = {
            { "defaultEdgePathType?", "EdgePathType",
              "path type of new edges that name none (`addEdge`, `connect`, accepted connections)",
              default = '"bezier"' },
            { "snapToGrid?", "boolean", "moves snap node positions to the grid", default = "false" },
            { "gridSize?", "number", "grid spacing in canvas units", default = "20" },
            { "minZoom?", "number", "smallest zoom; never below 0.01", default = "0.1" },
            { "maxZoom?", "number", "largest zoom; never below minZoom", default = "4" },
            { "panEnabled?", "boolean", "whether pan and scroll move the viewport", default = "true" },
            { "zoomEnabled?", "boolean", "whether zoom and magnify change the zoom", default = "true" },
            { "selectionEnabled?", "boolean", "whether pointer input selects", default = "true" },
            { "multiSelectionEnabled?", "boolean",
              "whether several items can be selected at once", default = "true" },
            { "undo?", "boolean",
              "whether the store keeps an undo history (cannot change inside a transaction or a callback)",
              default = "true" },
            { "handleHitRadius?", "number",
              "distance within which a press hits a handle (canvas units)", default = "25" },
            { "connectionRadius?", "number",
              "distance within which a connection finds a target handle (canvas units)",
              default = "40" },
            { "edgeHitTolerance?", "number",
              "distance within which a point hits an edge (canvas units)", default = "5" },
            { "edgeStyle?", "EdgeStyle", "how edges are drawn" },
            { "backgroundStyle?", "BackgroundStyle", "how the canvas background is drawn" },
            { "autoHandles?", "boolean",
              "edges at the default handles of a node that has them attach on the side facing the other node",
              default = "false" },
            { "classes?", "table<string, ClassStyle>",
              "the style sheet: what nodes and edges with each class look like", default = "{}" },
          },
          text = [[
            Given to `flow.newStore` and `store:configure`, read back (with every key) as
            `store.configuration`. An unknown key raises an error.

            With `autoHandles`, an edge end at handle "source" or "target" of a node that has
            the default handles attaches where the handle id "auto" would: on the side facing
            the node at the other end (see `Edge.sourceHandleID`). The drawing then leaves out
            those nodes' handle markers. Routes of orthogonal edges follow at their next change
            (or `store:route()`).

            `classes` replaces the whole style sheet, like Graphviz's node defaults or
            Mermaid's classDef: `store:configure{ classes = { db = { shape = "cylinder",
            fill = "#eef" } } }` gives every node with class `db` that shape and fill. The
            sheet is part of the document: exported, loaded and undone (`configure` with
            `classes` is an undo step "Classes"; nodes sized to their titles are resized).
            Class names are CSS identifiers (a letter or `_`, then letters, digits, `_`, `-`);
            the names the pictures use themselves (`node`, `edge`, `selected`, …) are
            reserved.

            The zoom limits are always clamped: minZoom is at least 0.01 and maxZoom at
            least minZoom; narrowing them re-clamps the current zoom. Turning `undo` off
            clears the history; turning it on starts with an empty one. Every radius and
            tolerance is strict: a point hits when its distance is less than the value.]],
        },
        {
          name = "ClassStyle", kind = "type", extends = "Style",
          summary = "An entry of the style sheet (`Config.classes`): a style and a node shape.",
          fields = {
            { "shape?", "NodeShape", "the shape of nodes with the class (their own `shape` wins)" },
          },
        },
        {
          name = "EdgeStyle", kind = "type",
          summary = "How edges are stroked: the `edgeStyle` key of `Config`.",
          fields = {
            { "strokeColor?", "string", "colour of an edge", default = '"#808080"' },
            { "selectedStrokeColor?", "string", "colour of a selected edge", default = '"#007aff"' },
            { "lineWidth?", "number", "width of an edge", default = "1.5" },
            { "selectedLineWidth?", "number", "width of a selected edge", default = "2.5" },
            { "dashPattern?", "number[]", "dashes of an edge; empty for a solid line", default = "{}" },
            { "animatedDashPattern?", "number[]", "dashes of an animated edge", default = "{5, 5}" },
          },
        },
        {
          name = "BackgroundStyle", kind = "type",
          summary = "How the canvas background is drawn: the `backgroundStyle` key of `Config`.",
          fields = {
            { "pattern?", "BackgroundPattern", "what to draw", default = '"none"' },
            { "color?", "string", "colour of the pattern", default = '"#80808033"' },
            { "spacing?", "number", "distance between grid lines or dots", default = "20" },
            { "lineWidth?", "number", "width of grid lines", default = "0.5" },
            { "dotRadius?", "number", "radius of the dots", default = "1.5" },
          },
        },
        {
          name = "Store", kind = "type",
          summary = "A diagram: nodes, edges, selection, viewport, history and callbacks.",
          text = [[
            Made by `flow.newStore`, `flow.open` or `flow.decode`. Every operation is atomic:
            a call that raises leaves the store exactly as it was.

            All fields are read-only except the callback fields (`onNodesChange`,
            `onConnect`, ...), which take a function or nil. Assigning any other field
            raises, and so does reading a field that does not exist
            (`Store has no field 'nodecount' (did you mean 'nodeCount'?)`), so a typo never
            passes as nil. A field, method or table key that is a likely misspelling of a known
            one (one or two edits, case ignored, a `get`/`set`/`is` prefix dropped, or the start
            of a longer name) is answered with that name; an unknown key of an argument table
            the same way (`unknown field 'postion'; did you mean 'position'?`). A node field
            that reads like a guess at its text (`label`, `text`, `title`, `name`, `lable`)
            is answered with where the text goes: `data = {label = ...}`.
            `tostring(store)` is e.g. `Store (3 nodes, 2 edges)` or `Store (1 node, 1 edge)`.

            A store ends its life as every object that holds something does: `store:close()`,
            a `<close>` variable, or the collector. After that every call, and every call of
            its Node and Edge handles, raises `attempt to use a closed Store`.]],
        },
        {
          name = "Store:close", kind = "method",
          summary = "Releases the store now: its callbacks, caches and workspace binding.",
          text = [[
            What a `<close>` variable does at the end of its scope. Later calls of the store
            and of its handles raise `attempt to use a closed Store`; closing it again does
            nothing. A store bound to a workspace diagram is unbound (the diagram stays in
            the file as last written).]],
          example = [[
            do
              local s <close> = flow.newStore()
              s:addNode{id = "a", x = 0, y = 0}
            end   -- s is closed here]],
        },
        {
          name = "Store:configure", kind = "method",
          summary = "Changes configuration keys; keys not given keep their values.",
          params = {
            { "config", "Config", "the keys to change" },
          },
          returns = { { "boolean", "true when something changed" } },
          text = [[
            An unknown key raises. Narrowing the zoom limits re-clamps the current zoom and
            keeps the offset. Turning `undo` off clears the history.]],
          example = [[
            s:configure{ snapToGrid = true, gridSize = 10 }]],
        },
        {
          name = "Store.configuration", kind = "field", type = "Config",
          summary = "A copy of the whole configuration, with every key.",
          text = [[
            Changing the returned table does not change the store; use `store:configure`.]],
        },
      },
    },

    ---------------------------------------------------------------------------------------
    {
      id = "nodes",
      title = "Nodes",
      text = [[
        Nodes are rectangles at absolute canvas positions, with handles that edges attach
        to. A node may have a parent that accepts children; the link is logical (moves,
        removal and grouping follow it), positions stay absolute.

        Patches (`updateNode`, `updateEdge`, `node:update`, `edge:update`) set the fields
        they name; `flow.null` clears an optional field. A function instead of a patch
        receives a plain copy of the item's table and may edit it in place or return a
        replacement; a returned table is the whole new item, and fields it lacks take their
        defaults. Unknown keys raise; so do `x`/`y` together with `position`, `width`/
        `height` together with `size`, and a changed `id`.]],
      entries = {
        {
          name = "NodeSpec", kind = "type",
          summary = "The fields of a new node: the table `store:addNode` takes.",
          fields = {
            { "id?", "FlowID",
              "unique id; when absent the smallest `n<k>` (k >= 1) not used in the store" },
            { "x?", "number", "left edge (canvas); or give `position`" },
            { "y?", "number", "top edge (canvas); or give `position`" },
            { "position?", "Point", "the top-left corner, instead of `x`, `y`" },
            { "width?", "number", "width; or give `size`", default = "150" },
            { "height?", "number", "height; or give `size`", default = "60" },
            { "size?", 'Size|"auto"', "the size, instead of `width`, `height`; \"auto\": sized to the title" },
            { "data?", "any", "a JSON-representable value, stored as a copy" },
            { "shape?", "NodeShape", "its outline; absent: its classes', else \"rounded\"" },
            { "class?", "string|string[]", "its class or classes (see `Config.classes`)" },
            { "style?", "Style", "its own style, over its classes'" },
            { "isDraggable?", "boolean", "whether pointer drags move it", default = "true" },
            { "zIndex?", "integer", "drawing and hit-testing order; higher is in front",
              default = "0" },
            { "parentID?", "FlowID", "the parent node; it must accept children" },
            { "acceptsChildren?", "boolean", "whether it can be a parent", default = "false" },
            { "handles?", "HandleSpec[]",
              "its handles; by default a target handle \"target\" on top and a source handle \"source\" at the bottom" },
          },
          text = [[
            A node given neither `width` nor `height` (nor `size`), or given `size = "auto"`,
            is sized to its title (`node.autoSize`): at least 150 x 60 (a circle: 60 x 60),
            grown until the whole title shows, its lines wrapped at the style's `wrapWidth`
            (200) and at every `"\n"`. Titles are measured as the pictures measure them (7 px
            a character at 12 px, 12 px for wide CJK characters). The store keeps the size
            up to date when the title, shape, style or classes change; giving a size ends
            it. A node given a size keeps it, and its picture cuts a title that does not fit
            with "…".

            `data` is nil, a boolean, a number, a string, or a table of those: a table whose
            keys are exactly 1..n (n >= 1) is an array; any other table must have only
            string keys and is an object; the empty table is an empty object. Functions,
            userdata (other than `flow.null`), threads, NaN and infinities, mixed or sparse
            tables and cycles are rejected with an error.]],
        },
        {
          name = "HandleSpec", kind = "type",
          summary = "A handle of a node: where edges attach.",
          fields = {
            { "id", "string", "unique among the node's handles" },
            { "type", "HandleType", "whether edges leave or arrive here" },
            { "position", "HandlePosition", "the side of the node it sits on" },
            { "offset?", "number",
              "where along its side, as a fraction of the side from its middle (-0.5 to 0.5, left to right, top to bottom); default 0" },
            { "connectionStartArea?", "HitArea",
              "where a press starts a connection; default: within `handleHitRadius`" },
            { "connectionTargetArea?", "HitArea",
              "where a connection finds it as a target; default: within `connectionRadius`" },
          },
        },
        {
          name = "HitArea", kind = "type",
          summary = "The area in which a handle is hit.",
          fields = {
            { "kind", '"point"|"node"|"nodeBorder"|"disabled"', "the kind of area" },
            { "radius?", "number", "for \"point\": hits when the distance is less than this" },
            { "width?", "number", "for \"nodeBorder\": the width of the band on each side of the border" },
          },
          text = [[
            `{kind="point", radius=r}` hits within r of the handle point; `{kind="node"}`
            hits anywhere in the node's frame; `{kind="nodeBorder", width=w}` hits in a band
            of w on both sides of the node's border; `{kind="disabled"}` never hits.]],
        },
        {
          name = "NodeTable", kind = "type", extends = "NodeSpec",
          summary = "A plain snapshot of a node: the shape `addNode` takes, plus its flags.",
          fields = {
            { "isSelected", "boolean", "whether the node is selected" },
            { "isHovered", "boolean", "whether the node is hovered" },
            { "isDropTarget", "boolean", "whether the node is the drop target" },
          },
          text = [[
            Returned by `node:table()`, given to update functions, and carried by `add` and
            `replace` change events. It is a copy: changing it changes nothing.]],
        },
        {
          name = "NodePatch", kind = "type",
          summary = "The fields to change in `updateNode` and `node:update`.",
          fields = {
            { "x?", "number", "new left edge" },
            { "y?", "number", "new top edge" },
            { "position?", "Point", "new top-left corner, instead of `x`, `y`" },
            { "width?", "number", "new width" },
            { "height?", "number", "new height" },
            { "size?", 'Size|"auto"', "new size, instead of `width`, `height`; \"auto\": size it to its title" },
            { "data?", "any", "new data; `flow.null` clears it" },
            { "isDraggable?", "boolean", "new draggable flag" },
            { "zIndex?", "integer", "new drawing order" },
            { "parentID?", "FlowID|userdata", "new parent; `flow.null` moves the node to the root" },
            { "acceptsChildren?", "boolean", "new container flag" },
            { "handles?", "HandleSpec[]", "new handles" },
            { "shape?", "NodeShape|userdata", "new shape; `flow.null` clears it" },
            { "class?", "string|string[]|userdata", "new classes; `flow.null` or `{}` removes them" },
            { "style?", "Style|userdata", "new style (the whole style); `flow.null` clears it" },
          },
          text = [[
            A patch may not name both `x`/`y` and `position`, nor both `width`/`height` and
            `size`; naming `id` with another value, or an unknown key, raises.]],
        },
        {
          name = "Store:addNode", kind = "method",
          summary = "Adds a node and returns its handle.",
          params = {
            { "t", "NodeSpec", "the node's fields" },
          },
          returns = { { "Node", "the new node" } },
          text = [[
            One undo step; emits an `add` event. Raises for a duplicate id, an unknown key,
            a parent that does not exist or does not accept children, a bad handle
            declaration or data that is not JSON-representable.]],
          example = [[
            local a = s:addNode{ id = "a", x = 0, y = 0, data = { label = "Start" } }
            local b = s:addNode{ x = 200, y = 0, width = 120, height = 50 }  -- id "n1"]],
        },
        {
          name = "Store:addNodes", kind = "method",
          summary = "Adds many nodes in one call, as a list or as columns, and returns how many it added.",
          params = {
            { "items", "NodeSpec[]|table", "the nodes' fields in the order they are added: a list of NodeSpec tables, or a table of columns" },
          },
          returns = { { "integer", "the number of nodes added" } },
          text = [[
            Each item gets the defaults and checks of `addNode`, against the store and the
            items before it: an id named twice is a duplicate, a parent may be an earlier
            item, an item without an id gets the one `addNode` would give it at its turn. The
            whole call is one change: one undo step ("Add Nodes"), one batch of `add` events
            in item order. An invalid item raises, naming its index and what `addNode` would
            say (`addNodes: item 3: node 'a' already exists`,
            `addNodes: item 2: field 'x': number expected, got string`), and nothing is
            added.

            Columns (a table whose `[1]` is nil): every field of NodeSpec may be a column, an
            array whose element i is item i's value (`id = {"a", "b"}`, `x = {0, 200}`,
            `data = {{label = "A"}, {label = "B"}}`); a value that is not a table is the same
            for every item (`width = 150`, `shape = "circle"`, `class = "box"`), so a field
            whose value is a table (`position`, `size`, `data`, `class` as a list, `style`,
            `handles`) is always given as a column. Every column has the same length, the
            number of items (`columns of unequal length: 'id' has 4 items, 'x' has 3 items`); an
            element `flow.null` leaves that field out for that item, and a column may not
            have holes (nil). Item i is exactly the list's entry i with those fields. Columns of
            `id`, `x`, `y`, `width`, `height` and `parentID` cost about half a list per node,
            since no table is made per entry (docs/performance.md, "Batch adds in
            columns"): the form to use for big diagrams. An item with other fields is made
            into a table anyway, so for nodes with `data` or `style` a list is as cheap.]],
          example = [[
            local ids, xs = {}, {}
            for i = 1, 1000 do ids[i], xs[i] = "n" .. i, i * 200 end
            s:addNodes{ id = ids, x = xs, y = 0, width = 150, height = 60 }  -- 1000
            s:addNodes{ { id = "a", x = 0, y = 100 }, { id = "b", x = 200, y = 100 } }  -- 2]],
        },
        {
          name = "Store:removeNode", kind = "method",
          summary = "Removes a node, its descendants and every edge touching them.",
          params = { { "id", "FlowID", "the node" } },
          returns = { { "boolean", "true" } },
          text = [[
            One undo step. Raises for an unknown id. Removing a selected item emits only its
            `remove` event.]],
        },
        {
          name = "Store:moveNode", kind = "method",
          summary = "Moves a node's top-left corner to (x, y).",
          params = {
            { "id", "FlowID", "the node" },
            { "x", "number", "new left edge (canvas)" },
            { "y", "number", "new top edge (canvas)" },
          },
          returns = { { "boolean", "true when the node moved, false when it was there already" } },
          text = [[
            The position is snapped when `snapToGrid` is on. Descendants move by the node's
            actual (snapped) delta and are not snapped themselves. One undo step; emits
            `position` events.]],
          example = [[
            s:moveNode("a", 100, 40)]],
        },
        {
          name = "Store:updateNode", kind = "method",
          summary = "Changes a node's fields with a patch table or an update function.",
          params = {
            { "id", "FlowID", "the node" },
            { "update", "NodePatch|fun(t: NodeTable): NodeTable?",
              "a patch, or a function that edits the plain table or returns a replacement" },
          },
          returns = { { "boolean", "true when something changed" } },
          text = [[
            The result is validated and applied atomically; one undo step with a `replace`
            event. Changing `id`, an unknown key, an invalid parent or a parent cycle
            raises. What the function itself changes in the store is part of the same step,
            and is rolled back with the rest when the function or the update fails.]],
          example = [[
            s:updateNode("a", { data = { label = "Renamed" }, zIndex = 2 })
            s:updateNode("a", function(t) t.width = t.width * 2 end)]],
        },
        {
          name = "Store:updateNodeSize", kind = "method",
          summary = "Resizes a node.",
          params = {
            { "id", "FlowID", "the node" },
            { "width", "number", "new width" },
            { "height", "number", "new height" },
          },
          returns = { { "boolean", "true when the size changed" } },
          text = [[
            One undo step; emits a `dimensions` event.]],
        },
        {
          name = "Store:nextNodeID", kind = "method",
          summary = "The id `addNode` would give a node without one.",
          returns = { { "string", "the smallest unused `n<k>` (k >= 1)" } },
          text = [[
            Deterministic: the same store always gives the same answer. Removing "n2"
            makes "n2" free again.]],
        },
        {
          name = "Store:nextEdgeID", kind = "method",
          summary = "The id `addEdge` would give an edge without one.",
          returns = { { "string", "the smallest unused `e<k>` (k >= 1)" } },
        },
        {
          name = "Store:node", kind = "method",
          summary = "The handle of a node, or nil when there is no node with that id.",
          params = { { "id", "FlowID", "the node" } },
          returns = { { "Node?" } },
          result = "Node or nil",
          text = [[
            The same id gives the same handle: `store:node("a") == store:node("a")`. A
            canonically equivalent spelling of the id (`"e\u{301}"` for `"é"`) names the
            same node and gives its handle, whose `id` is the one the store keeps.]],
        },
        {
          name = "Store:nodes", kind = "method",
          summary = "Every node, in store order.",
          returns = { { "Node[]" } },
          example = [[
            for _, n in ipairs(s:nodes()) do print(n.id, n.x, n.y) end]],
        },
        {
          name = "Store.nodeCount", kind = "field", type = "integer",
          summary = "The number of nodes.",
        },
        {
          name = "Store.edgeCount", kind = "field", type = "integer",
          summary = "The number of edges.",
        },
        {
          name = "Store:setParent", kind = "method",
          summary = "Sets or clears the parent of a node.",
          params = {
            { "id", "FlowID", "the node" },
            { "parentID", "FlowID?", "the new parent, or nil for the root" },
          },
          returns = { { "boolean", "true when the parent changed; false when it was the parent already" } },
          text = [[
            The parent must exist and have `acceptsChildren`; a cycle raises. Positions do
            not change. One undo step.]],
        },
        {
          name = "Store:setEdgeParent", kind = "method",
          summary = "Sets or clears the parent of an edge.",
          params = {
            { "id", "FlowID", "the edge" },
            { "parentID", "FlowID?", "the new parent node, or nil for the root" },
          },
          returns = { { "boolean", "true when the parent changed" } },
          text = [[
            The parent must be a node that accepts children. One undo step.]],
        },
        {
          name = "GroupOptions", kind = "type",
          summary = "The options of `store:groupSelection`.",
          fields = {
            { "id?", "FlowID", "id of the group; default: the smallest free `n<k>`" },
            { "data?", "any", "data of the group" },
            { "padding?", "number", "space around the grouped nodes", default = "24" },
            { "zIndex?", "integer", "drawing order of the group; default: below the grouped nodes" },
          },
        },
        {
          name = "Store:groupSelection", kind = "method",
          summary = "Puts the selected nodes into a new group node and returns it.",
          params = {
            { "opts?", "GroupOptions", "id, data, padding and zIndex of the group" },
          },
          returns = { { "Node", "the new group" } },
          text = [[
            The group accepts children, surrounds the selected nodes with `padding`, and is
            created under their common parent when they share one. The group becomes the
            selection. One undo step; the group gets `add`, then `select`. Raises when no
            node is selected.]],
          example = [[
            s:selectNode("a"); s:selectNode("b", false)
            local g = s:groupSelection{ data = { title = "Stage 1" }, padding = 16 }]],
        },
        {
          name = "Store:ungroupNode", kind = "method",
          summary = "Removes a node but keeps its children, which move up to its parent.",
          params = { { "id", "FlowID", "the group" } },
          returns = { { "boolean", "true" } },
          text = [[
            Children and child edges get the group's own parent; edges attached to the group
            are removed. One undo step. Raises for an unknown id.]],
        },
        {
          name = "Store:childNodes", kind = "method",
          summary = "The nodes whose parent is the given node (nil: the root nodes).",
          params = { { "parentID?", "FlowID", "the parent, or nil for the root" } },
          returns = { { "Node[]", "in store order" } },
        },
        {
          name = "Store:childEdges", kind = "method",
          summary = "The edges whose parent is the given node (nil: the edges at the root).",
          params = { { "parentID?", "FlowID", "the parent, or nil for the root" } },
          returns = { { "Edge[]", "in store order" } },
        },
        {
          name = "Store:descendantNodeIDs", kind = "method",
          summary = "The ids of a node's children, their children and so on (not the node).",
          params = { { "id", "FlowID", "the node" } },
          returns = { { "string[]" } },
        },

        {
          name = "Node", kind = "type",
          summary = "A live handle on a node of a store.",
          text = [[
            Reading a field always reads the store now, never a stale copy. The fields are
            read-only: assigning one raises (`field 'x' is read-only (use node:move)`), and
            so does reading one that does not exist. Using a handle whose node was removed
            raises `node 'a' no longer exists`; `node:exists()` tells without raising.
            The same node gives the same handle, so handles compare with `==` and work as
            table keys; a removed node's handle, while it is alive, is again the one its
            id gives when the node comes back (undo, redo, a load, or added again).
            `tostring(node)` is e.g. `Node a (50, 100, 120x50)`.]],
          example = [[
            local a = s:node("a")
            a:move(10, 20)
            print(a.x, a.y, a.isSelected)]],
        },
        { name = "Node.id", kind = "field", type = "string", summary = "The node's id." },
        { name = "Node.x", kind = "field", type = "number", summary = "The left edge (canvas)." },
        { name = "Node.y", kind = "field", type = "number", summary = "The top edge (canvas)." },
        { name = "Node.position", kind = "field", type = "Point", summary = "The top-left corner (canvas)." },
        { name = "Node.width", kind = "field", type = "number", summary = "The width." },
        { name = "Node.height", kind = "field", type = "number", summary = "The height." },
        { name = "Node.size", kind = "field", type = "Size", summary = "The size." },
        {
          name = "Node.data", kind = "field", type = "any",
          summary = "A copy of the node's data (nil when it has none).",
        },
        {
          name = "Node.parentID", kind = "field", type = "string?",
          summary = "The parent's id, or nil at the root.",
        },
        {
          name = "Node.isDraggable", kind = "field", type = "boolean",
          summary = "Whether pointer drags move the node.",
        },
        {
          name = "Node.zIndex", kind = "field", type = "integer",
          summary = "Drawing and hit-testing order; higher is in front.",
        },
        {
          name = "Node.acceptsChildren", kind = "field", type = "boolean",
          summary = "Whether the node can be a parent.",
        },
        {
          name = "Node.handles", kind = "field", type = "HandleSpec[]",
          summary = "A copy of the node's handle declarations.",
        },
        { name = "Node.isSelected", kind = "field", type = "boolean", summary = "Whether the node is selected." },
        { name = "Node.isHovered", kind = "field", type = "boolean", summary = "Whether the node is hovered." },
        {
          name = "Node.isDropTarget", kind = "field", type = "boolean",
          summary = "Whether the node is the current drop target.",
        },
        { name = "Node.frame", kind = "field", type = "Rect", summary = "Position and size as a rect (canvas)." },
        {
          name = "Node.shape", kind = "field", type = "NodeShape?",
          summary = "Its own shape, or nil when its classes (or the default, rounded) decide.",
        },
        {
          name = "Node.class", kind = "field", type = "string[]",
          summary = "Its classes, in order (an empty list for none).",
        },
        {
          name = "Node.style", kind = "field", type = "Style",
          summary = "The properties of its own style (an empty table for none).",
        },
        {
          name = "Node.autoSize", kind = "field", type = "boolean",
          summary = "Whether the store sizes it to its title.",
          text = [[
            True for a node added without a size or given `size = "auto"`; giving it a size
            (`node:resize`, a patch with `width`, `height` or `size`) makes it false.]],
        },
        {
          name = "Node:move", kind = "method",
          summary = "Moves the node: `store:moveNode(node.id, x, y)`.",
          params = {
            { "x", "number", "new left edge (canvas)" },
            { "y", "number", "new top edge (canvas)" },
          },
          returns = { { "boolean", "true when the node moved" } },
        },
        {
          name = "Node:update", kind = "method",
          summary = "Changes the node's fields: `store:updateNode(node.id, update)`.",
          params = {
            { "update", "NodePatch|fun(t: NodeTable): NodeTable?", "a patch or an update function" },
          },
          returns = { { "boolean", "true when something changed" } },
        },
        {
          name = "Node:resize", kind = "method",
          summary = "Resizes the node: `store:updateNodeSize(node.id, width, height)`.",
          params = {
            { "width", "number", "new width" },
            { "height", "number", "new height" },
          },
          returns = { { "boolean", "true when the size changed" } },
        },
        {
          name = "Node:remove", kind = "method",
          summary = "Removes the node: `store:removeNode(node.id)`.",
          returns = { { "boolean", "true" } },
        },
        {
          name = "Node:edges", kind = "method",
          summary = "The edges attached to the node: `store:edgesForNode(node.id)`.",
          returns = { { "Edge[]", "in store order" } },
        },
        {
          name = "Node:exists", kind = "method",
          summary = "Whether the node is still in its store; never raises.",
          returns = { { "boolean", "false once the node was removed" } },
        },
        {
          name = "Node:table", kind = "method",
          summary = "A plain snapshot table of the node.",
          returns = { { "NodeTable" } },
          text = [[
            The same flat shape that `addNode` accepts, plus `isSelected`, `isHovered` and
            `isDropTarget`. It is a copy: later changes to the node do not show in it.]],
        },
      },
    },

    ---------------------------------------------------------------------------------------
    {
      id = "edges",
      title = "Edges",
      text = [[
        An edge joins a source node to a target node, optionally at named handles. Without
        a handle id the edge attaches to the node's centre. A source handle must be of type
        "source" and a target handle of type "target".

        The handle id "auto" is valid at either end on a node with the default handles: the
        edge attaches at the middle of the side facing the other end's node (left or right
        when the nodes are further apart horizontally than vertically, else top or bottom).

        An edge may have bend points (`points`): canvas points its path passes through, in
        order from source to target. A straight edge becomes a polyline, a smoothStep edge
        runs horizontally and vertically through them with rounded corners, and the bezier
        types draw a smooth curve through them; the label sits halfway along the path.
        Bend points are absolute: moving one end node leaves them where they are, while one
        call that moves both end nodes by the same delta (a node with its children,
        `setNodePositions`, a drag of a selection when it ends) moves them by that delta,
        in the same undo step.

        Orthogonal edges are routed by the store (see "Routing"): their points are their
        route, from where it leaves the source node to where it enters the target node.]],
      entries = {
        {
          name = "EdgeSpec", kind = "type",
          summary = "The fields of a new edge: the table `store:addEdge` takes.",
          fields = {
            { "id?", "FlowID", "unique id; when absent the smallest `e<k>` (k >= 1) not used" },
            { "sourceNodeID", "FlowID", "the node the edge leaves" },
            { "sourceHandleID?", "string", "a source handle of that node, or \"auto\"; absent: its centre" },
            { "targetNodeID", "FlowID", "the node the edge enters" },
            { "targetHandleID?", "string", "a target handle of that node, or \"auto\"; absent: its centre" },
            { "pathType?", "EdgePathType", "the shape of the path",
              default = "configuration.defaultEdgePathType" },
            { "label?", "string", "text drawn along the path (\"\\n\" starts a new line)" },
            { "parentID?", "FlowID", "a parent node that accepts children" },
            { "points?", "Point[]", "bend points, in order from source to target; absent: none" },
            { "class?", "string|string[]", "its class or classes (see `Config.classes`)" },
            { "style?", "Style", "its own style, over its classes' (arrowheads included)" },
          },
        },
        {
          name = "EdgeTable", kind = "type", extends = "EdgeSpec",
          summary = "A plain snapshot of an edge: the shape `addEdge` takes, plus its flags.",
          fields = {
            { "isSelected?", "boolean", "whether the edge is selected" },
            { "isAnimated?", "boolean", "whether the edge is drawn animated" },
            { "isDropTarget?", "boolean", "whether the edge is the drop target" },
          },
          text = [[
            Returned by `edge:table()`, given to update functions, and carried by `add` and
            `replace` change events. It is a copy: changing it changes nothing. `points` is
            there only when the edge has bend points.]],
        },
        {
          name = "EdgePatch", kind = "type",
          summary = "The fields to change in `updateEdge` and `edge:update`.",
          fields = {
            { "sourceNodeID?", "FlowID", "new source node" },
            { "sourceHandleID?", "string", "new source handle" },
            { "targetNodeID?", "FlowID", "new target node" },
            { "targetHandleID?", "string", "new target handle" },
            { "pathType?", "EdgePathType", "new path type" },
            { "label?", "string|userdata", "new label; `flow.null` clears it" },
            { "parentID?", "FlowID|userdata", "new parent; `flow.null` moves the edge to the root" },
            { "points?", "Point[]|userdata", "new bend points; `flow.null` or `{}` removes them" },
            { "class?", "string|string[]|userdata", "new classes; `flow.null` or `{}` removes them" },
            { "style?", "Style|userdata", "new style (the whole style); `flow.null` clears it" },
          },
          text = [[
            The changed edge is validated like a new one. Naming `id` with another value, or
            an unknown key, raises.]],
        },
        {
          name = "ConnectOptions", kind = "type",
          summary = "The options of `store:connect`.",
          fields = {
            { "label?", "string", "the edge's label" },
            { "pathType?", "EdgePathType", "the edge's path type",
              default = "configuration.defaultEdgePathType" },
            { "points?", "Point[]", "the edge's bend points" },
            { "class?", "string|string[]", "the edge's classes" },
            { "style?", "Style", "the edge's own style" },
          },
        },
        {
          name = "Store:addEdge", kind = "method",
          summary = "Adds an edge and returns its handle.",
          params = {
            { "t", "EdgeSpec", "the edge's fields" },
          },
          returns = { { "Edge", "the new edge" } },
          text = [[
            One undo step; emits an `add` event. Raises for a duplicate id, a missing source
            or target node, a handle id the node does not declare, a source handle that is
            not of type "source" or a target handle that is not of type "target", an
            unknown path type (`addEdge: invalid path type 'curvy' (expected one of: ...)`),
            and bend points that are not an array of points
            (`bad argument #1 to 'addEdge' (field 'points[2].y': number expected, got nil)`),
            have a coordinate that is not finite
            (`addEdge: points must be finite numbers (point 2 is (nan, 0))`) or number more
            than 10000.]],
          example = [[
            s:addEdge{ sourceNodeID = "a", sourceHandleID = "source",
                       targetNodeID = "b", targetHandleID = "target", label = "next" }]],
        },
        {
          name = "Store:addEdges", kind = "method",
          summary = "Adds many edges in one call, as a list or as columns, and returns how many it added.",
          params = {
            { "items", "EdgeSpec[]|table", "the edges' fields in the order they are added: a list of EdgeSpec tables, or a table of columns" },
          },
          returns = { { "integer", "the number of edges added" } },
          text = [[
            Each item gets the defaults and checks of `addEdge` (the path type
            `configuration.defaultEdgePathType` when it names none), against the store and
            the items before it: an id named twice is a duplicate, an item without an id
            gets the one `addEdge` would give it at its turn. The whole call is one change:
            one undo step ("Add Edges"), one batch of `add` events in item order. An invalid
            item raises, naming its index and what `addEdge` would say
            (`addEdges: item 3: source node 'x' does not exist`), and nothing is added.
            Columns are read as `addNodes` reads them: every field of EdgeSpec may be a
            column (`points` and a `class` list always are), a value that is not a table is
            the same for every item (`pathType = "straight"`, `targetNodeID = "hub"`), an
            element `flow.null` leaves that field out for that item.]],
          example = [[
            local from, to = {}, {}
            for i = 1, 999 do from[i], to[i] = "n" .. i, "n" .. i + 1 end
            s:addEdges{ sourceNodeID = from, targetNodeID = to, pathType = "straight" }  -- 999
            s:addEdges{ { sourceNodeID = "a", targetNodeID = "b", label = "next" } }  -- 1]],
        },
        {
          name = "Store:connect", kind = "method",
          summary = "Shorthand for `addEdge`: connects \"node\" or \"node.handle\" to another.",
          params = {
            { "source", "string", "\"node\" or \"node.handle\"" },
            { "target", "string", "\"node\" or \"node.handle\"" },
            { "opts?", "ConnectOptions", "label, path type and bend points" },
          },
          returns = { { "Edge", "the new edge" } },
          text = [[
            Without a handle, the source node's first source handle and the target node's
            first target handle are used. The id is chosen as in `addEdge`, and so is the
            path type: `configuration.defaultEdgePathType` unless `opts.pathType` names
            another.]],
          example = [[
            s:connect("a", "b")
            s:connect("a.out", "b.in", { label = "yes", pathType = "smoothStep" })
            s:connect("a", "c", { pathType = "straight", points = { { x = 300, y = 0 } } })]],
        },
        {
          name = "Store:removeEdge", kind = "method",
          summary = "Removes an edge.",
          params = { { "id", "FlowID", "the edge" } },
          returns = { { "boolean", "true" } },
          text = [[
            One undo step; emits a `remove` event. Raises for an unknown id.]],
        },
        {
          name = "Store:updateEdge", kind = "method",
          summary = "Changes an edge's fields with a patch table or an update function.",
          params = {
            { "id", "FlowID", "the edge" },
            { "update", "EdgePatch|fun(t: EdgeTable): EdgeTable?",
              "a patch, or a function that edits the plain table or returns a replacement" },
          },
          returns = { { "boolean", "true when something changed" } },
          text = [[
            A structural update: one undo step with a `replace` event when something
            changed. The result is validated like a new edge.]],
          example = [[
            s:updateEdge("e1", { label = flow.null, pathType = "straight" })
            s:updateEdge("e2", { points = { { x = 100, y = 40 }, { x = 100, y = 200 } } })
            s:updateEdge("e2", { points = flow.null })]],
        },
        {
          name = "Store:updateEdges", kind = "method",
          summary = "Calls an update function for every edge; one undo step for all of them.",
          params = {
            { "fn", "fun(t: EdgeTable): EdgeTable?",
              "edits each plain table in place or returns a replacement" },
          },
          returns = { { "boolean", "true when some edge changed" } },
          text = [[
            Edges are visited in store order. The changed ones are delivered as one batch of
            `replace` events.]],
          example = [[
            s:updateEdges(function(e) e.pathType = "smoothStep" end)]],
        },
        {
          name = "Store:edge", kind = "method",
          summary = "The handle of an edge, or nil when there is no edge with that id.",
          params = { { "id", "FlowID", "the edge" } },
          returns = { { "Edge?" } },
          result = "Edge or nil",
        },
        {
          name = "Store:edges", kind = "method",
          summary = "Every edge, in store order.",
          returns = { { "Edge[]" } },
        },
        {
          name = "Store:edgesForNode", kind = "method",
          summary = "The edges attached to a node, in store order.",
          params = { { "id", "FlowID", "the node" } },
          returns = { { "Edge[]" } },
          text = [[
            Raises for an unknown node id.]],
        },
        {
          name = "PathGeometry", kind = "type",
          summary = "The drawn geometry of an edge, in canvas coordinates.",
          fields = {
            { "path", "string", "SVG path data with absolute M, L, C and Q commands, through the bend points" },
            { "sourcePoint", "Point", "where the path starts" },
            { "targetPoint", "Point", "where the path ends" },
            { "sourcePosition", "HandlePosition", "the side the path leaves from" },
            { "targetPosition", "HandlePosition", "the side the path enters from" },
            { "labelPosition", "Point", "where the label is drawn" },
            { "labelAngle", "number", "the label's angle in radians" },
            { "bounds", "Rect", "the tight bounding box of the curve" },
          },
          text = [[
            The path keeps the exact segment structure of the path type (no segments are
            merged).]],
        },
        {
          name = "Store:edgeGeometry", kind = "method",
          summary = "The path, end points, label position and bounds of an edge.",
          params = { { "id", "FlowID", "the edge" } },
          returns = { { "PathGeometry" } },
          text = [[
            Raises for an unknown edge id. The end points are the handle points, except for a
            routed orthogonal edge: it starts and ends where its route meets the node borders
            (edges that share a side attach at distinct points of it).]],
          example = [[
            local g = s:edgeGeometry("e1")
            print(g.path, g.labelPosition.x, g.labelPosition.y)]],
        },
        {
          name = "Store:setEdgeAnimated", kind = "method",
          summary = "Marks an edge as animated (drawn with moving dashes) or not.",
          params = {
            { "id", "FlowID", "the edge" },
            { "animated", "boolean", "on or off" },
          },
          returns = { { "boolean", "true when the flag changed" } },
          text = [[
            A side table: no undo step, not exported. Animated edges do not count in
            `isAnimating`.]],
        },
        {
          name = "Store:setAnimatedEdges", kind = "method",
          summary = "Replaces the whole set of animated edges.",
          params = {
            { "ids", "FlowID[]", "the edges to animate; every other edge stops" },
          },
          returns = { { "boolean", "true when the set changed" } },
          text = [[
            No undo step, not exported.]],
          example = [[
            s:setAnimatedEdges{ "e1", "e2" }]],
        },
        {
          name = "Store.animatedEdgeIDs", kind = "field", type = "string[]",
          summary = "The ids of the animated edges, in store order.",
        },

        {
          name = "Edge", kind = "type",
          summary = "A live handle on an edge of a store.",
          text = [[
            Behaves like a `Node` handle: fields read the store now and are read-only,
            unknown fields raise, a removed edge raises on use (`edge:exists()` tells), and
            the same edge gives the same handle. `tostring(edge)` is e.g.
            `Edge e1 (a.source -> b.target)`, or `Edge e1 (a -> b)` without handle ids.]],
        },
        { name = "Edge.id", kind = "field", type = "string", summary = "The edge's id." },
        { name = "Edge.sourceNodeID", kind = "field", type = "string", summary = "The node the edge leaves." },
        {
          name = "Edge.sourceHandleID", kind = "field", type = "string?",
          summary = "The source handle, or nil when the edge leaves the node's centre.",
          text = [[
            "auto" on a node with the default handles: the edge leaves from the middle of the
            side facing the target node (a self-loop leaves on the right and comes back at
            the top).]],
        },
        { name = "Edge.targetNodeID", kind = "field", type = "string", summary = "The node the edge enters." },
        {
          name = "Edge.targetHandleID", kind = "field", type = "string?",
          summary = "The target handle, or nil when the edge enters the node's centre.",
        },
        { name = "Edge.pathType", kind = "field", type = "EdgePathType", summary = "The shape of the path." },
        { name = "Edge.label", kind = "field", type = "string?", summary = "The label, or nil." },
        {
          name = "Edge.class", kind = "field", type = "string[]",
          summary = "Its classes, in order (an empty list for none).",
        },
        {
          name = "Edge.style", kind = "field", type = "Style",
          summary = "The properties of its own style (an empty table for none).",
        },
        {
          name = "Edge.points", kind = "field", type = "Point[]",
          summary = "The bend points, in order from source to target; {} when there are none.",
          text = [[
            A new table on every read: changing it changes nothing (use `edge:update`). For a
            routed orthogonal edge these are its route: the first point lies on the source
            node's border and the last on the target node's, where the path starts and ends.]],
        },
        {
          name = "Edge.parentID", kind = "field", type = "string?",
          summary = "The parent node's id, or nil at the root.",
        },
        { name = "Edge.isSelected", kind = "field", type = "boolean", summary = "Whether the edge is selected." },
        {
          name = "Edge.isAnimated", kind = "field", type = "boolean",
          summary = "Whether the edge is in the animated set.",
        },
        {
          name = "Edge.isDropTarget", kind = "field", type = "boolean",
          summary = "Whether the edge is the current drop target.",
        },
        {
          name = "Edge:update", kind = "method",
          summary = "Changes the edge's fields: `store:updateEdge(edge.id, update)`.",
          params = {
            { "update", "EdgePatch|fun(t: EdgeTable): EdgeTable?", "a patch or an update function" },
          },
          returns = { { "boolean", "true when something changed" } },
        },
        {
          name = "Edge:remove", kind = "method",
          summary = "Removes the edge: `store:removeEdge(edge.id)`.",
          returns = { { "boolean", "true" } },
        },
        {
          name = "Edge:geometry", kind = "method",
          summary = "The edge's geometry: `store:edgeGeometry(edge.id)`.",
          returns = { { "PathGeometry" } },
        },
        {
          name = "Edge:exists", kind = "method",
          summary = "Whether the edge is still in its store; never raises.",
          returns = { { "boolean", "false once the edge was removed" } },
        },
        {
          name = "Edge:table", kind = "method",
          summary = "A plain snapshot table of the edge.",
          returns = { { "EdgeTable" } },
          text = [[
            The same flat shape that `addEdge` accepts, plus the edge's flags. It is a copy.]],
        },
      },
    },

    ---------------------------------------------------------------------------------------
    {
      id = "selection",
      title = "Selection, focus, hover",
      text = [[
        Selection, focus and hover change no document content: they record no undo step.
        Selection changes emit `select` events; focus and hover emit none. Every call that
        takes an id raises for an unknown one.]],
      entries = {
        {
          name = "Store:selectNode", kind = "method",
          summary = "Selects a node, by default instead of the current selection.",
          params = {
            { "id", "FlowID", "the node" },
            { "exclusive?", "boolean", "false adds to the selection", default = "true" },
          },
          returns = { { "boolean", "true when the selection changed" } },
          text = [[
            The node also gets the focus. With multi-selection disabled the selection is
            always replaced.]],
          example = [[
            s:selectNode("a")
            s:selectNode("b", false)  -- a and b are selected]],
        },
        {
          name = "Store:deselectNode", kind = "method",
          summary = "Removes a node from the selection.",
          params = { { "id", "FlowID", "the node" } },
          returns = { { "boolean", "true when it was selected" } },
        },
        {
          name = "Store:selectEdge", kind = "method",
          summary = "Selects an edge, by default instead of the current selection.",
          params = {
            { "id", "FlowID", "the edge" },
            { "exclusive?", "boolean", "false adds to the selection", default = "true" },
          },
          returns = { { "boolean", "true when the selection changed" } },
        },
        {
          name = "Store:deselectEdge", kind = "method",
          summary = "Removes an edge from the selection.",
          params = { { "id", "FlowID", "the edge" } },
          returns = { { "boolean", "true when it was selected" } },
        },
        {
          name = "Store:clearSelection", kind = "method",
          summary = "Deselects every node and edge.",
          returns = { { "boolean", "true when something was selected" } },
        },
        {
          name = "Store:selectInRect", kind = "method",
          summary = "Replaces the selection with the nodes and edges inside a rectangle.",
          params = {
            { "x", "number", "left edge (canvas)" },
            { "y", "number", "top edge (canvas)" },
            { "width", "number", "width" },
            { "height", "number", "height" },
          },
          returns = { { "boolean", "true when it did something; false when multi-selection is disabled" } },
          text = [[
            Selects every node whose frame intersects the rectangle (touching counts) and
            every edge whose path comes within distance 1 of it; everything else is
            deselected. Does nothing and returns false when multi-selection is disabled.]],
        },
        {
          name = "Store:deleteSelection", kind = "method",
          summary = "Removes the selected nodes (with descendants) and edges.",
          returns = { { "boolean", "false when nothing was selected" } },
          text = [[
            Edges touching a removed node go too. One undo step; undo restores the items and
            the selection.]],
        },
        {
          name = "Store.selectedNodeIDs", kind = "field", type = "string[]",
          summary = "The ids of the selected nodes, in store order.",
        },
        {
          name = "Store.selectedEdgeIDs", kind = "field", type = "string[]",
          summary = "The ids of the selected edges, in store order.",
        },
        {
          name = "Store:focusNode", kind = "method",
          summary = "Gives a node the focus.",
          params = { { "id", "FlowID", "the node" } },
          returns = { { "boolean", "true when the focus changed" } },
        },
        {
          name = "Store:focusEdge", kind = "method",
          summary = "Gives an edge the focus.",
          params = { { "id", "FlowID", "the edge" } },
          returns = { { "boolean", "true when the focus changed" } },
        },
        {
          name = "Store:clearFocus", kind = "method",
          summary = "Removes the focus.",
          returns = { { "boolean", "true when something had the focus" } },
        },
        {
          name = "FocusTarget", kind = "type",
          summary = "The focused item: {kind=\"node\", id=} or {kind=\"edge\", id=}.",
          fields = {
            { "kind", '"node"|"edge"', "what has the focus" },
            { "id", "string", "its id" },
          },
        },
        {
          name = "Store.focusedTarget", kind = "field", type = "FocusTarget?",
          summary = "The focused node or edge, or nil.",
        },
        {
          name = "Store:setHoveredNode", kind = "method",
          summary = "Sets the hovered node, or clears it with nil.",
          params = { { "id", "FlowID?", "the node, or nil" } },
          returns = { { "boolean", "true when the hovered node changed" } },
        },
        {
          name = "Store.hoveredNodeID", kind = "field", type = "string?",
          summary = "The id of the hovered node, or nil.",
        },
      },
    },

    ---------------------------------------------------------------------------------------
    {
      id = "viewport",
      title = "Viewport and geometry",
      text = [[
        The viewport maps canvas coordinates to the screen: screen = canvas * zoom + offset.
        Viewport calls change no document content and record no undo step.

        Gated calls do nothing and return false: `pan` and `scroll` when panning is
        disabled, `zoom` and `magnify` when zooming is disabled, `selectInRect` when
        multi-selection is disabled, `fitToContent` with no nodes, `deleteSelection` with
        nothing selected, `cancelConnection` without a draft. They return true when they
        did something.

        The animated variants take a last argument `animation`; time moves only through
        `store:tick(dt)`.]],
      entries = {
        {
          name = "ViewportState", kind = "type",
          summary = "The viewport: {x=, y=, zoom=}; x, y is the offset.",
          fields = {
            { "x", "number", "horizontal offset (screen)" },
            { "y", "number", "vertical offset (screen)" },
            { "zoom", "number", "the scale from canvas to screen" },
          },
        },
        {
          name = "Store.viewport", kind = "field", type = "ViewportState",
          summary = "The current viewport: offset and zoom.",
        },
        {
          name = "Store:setViewport", kind = "method",
          summary = "Sets offset and zoom, at once or animated.",
          params = {
            { "viewport", "ViewportState", "the new offset and zoom" },
            { "animation?", "Animation", "animate there instead of jumping" },
          },
          returns = { { "boolean", "true when the viewport changed (or an animation started)" } },
          text = [[
            The zoom is clamped to the limits; the offset is kept as given.]],
          example = [[
            s:setViewport{ x = 0, y = 0, zoom = 1 }
            s:setViewport({ x = -200, y = 0, zoom = 2 }, "smooth")
            while s:tick(1 / 60) do end]],
        },
        {
          name = "Store:pan", kind = "method",
          summary = "Moves the viewport offset by (dx, dy) screen points.",
          params = {
            { "dx", "number", "horizontal distance" },
            { "dy", "number", "vertical distance" },
          },
          returns = { { "boolean", "false when panning is disabled" } },
        },
        {
          name = "Store:zoom", kind = "method",
          summary = "Multiplies the zoom by a factor, keeping the anchor point in place.",
          params = {
            { "factor", "number", "the zoom multiplier" },
            { "anchorX", "number", "the fixed point (screen)" },
            { "anchorY", "number", "the fixed point (screen)" },
            { "animation?", "Animation", "animate instead of jumping" },
          },
          returns = { { "boolean", "false when zooming is disabled" } },
          text = [[
            The new zoom is clamped to the limits; the canvas point under the anchor stays
            under it.]],
          example = [[
            s:zoom(2, 400, 300)]],
        },
        {
          name = "Store:fitToContent", kind = "method",
          summary = "Sets the viewport so every node fits a canvas of the given size.",
          params = {
            { "width", "number", "canvas width (screen)" },
            { "height", "number", "canvas height (screen)" },
            { "padding?", "number", "space around the nodes", default = "50" },
            { "animation?", "Animation", "animate instead of jumping" },
          },
          returns = { { "boolean", "false when there are no nodes" } },
          text = [[
            The nodes are centred; the zoom never goes above 1 and stays within the limits.]],
          example = [[
            s:fitToContent(800, 600)
            s:fitToContent(800, 600, 20, "default")]],
        },
        {
          name = "Store:screenToCanvas", kind = "method",
          summary = "Converts a screen point to canvas coordinates.",
          params = {
            { "x", "number", "screen x" },
            { "y", "number", "screen y" },
          },
          returns = { { "Point" } },
        },
        {
          name = "Store:canvasToScreen", kind = "method",
          summary = "Converts a canvas point to screen coordinates.",
          params = {
            { "x", "number", "canvas x" },
            { "y", "number", "canvas y" },
          },
          returns = { { "Point" } },
        },
        {
          name = "Store:nodeBounds", kind = "method",
          summary = "The smallest rect holding every node's frame.",
          returns = { { "Rect", "{x=0, y=0, width=0, height=0} without nodes" } },
        },
        {
          name = "HitResult", kind = "type",
          summary = "What lies under a point: a handle, a node or an edge.",
          fields = {
            { "kind", '"handle"|"node"|"edge"', "what was hit" },
            { "id?", "string", "the node or edge (kinds \"node\" and \"edge\")" },
            { "nodeID?", "string", "the handle's node (kind \"handle\")" },
            { "handleID?", "string", "the handle (kind \"handle\")" },
          },
        },
        {
          name = "Store:hitTest", kind = "method",
          summary = "What is under a canvas point: a handle, a node, an edge, or nil.",
          params = {
            { "x", "number", "canvas x" },
            { "y", "number", "canvas y" },
          },
          returns = { { "HitResult?", "nil for empty canvas" } },
          result = "HitResult or nil",
          text = [[
            Handles come first (a handle's `connectionStartArea`, else within
            `handleHitRadius`), then nodes (the front-most), then edges (within
            `edgeHitTolerance`; the last added is on top). Distances are strict.]],
          example = [[
            local hit = s:hitTest(120, 40)
            if hit and hit.kind == "node" then print("over", hit.id) end]],
        },
        {
          name = "Store:nodesInRect", kind = "method",
          summary = "The nodes whose frame intersects a rectangle (canvas).",
          params = {
            { "x", "number", "left edge" },
            { "y", "number", "top edge" },
            { "width", "number", "width" },
            { "height", "number", "height" },
          },
          returns = { { "Node[]", "in store order" } },
        },
        {
          name = "Animation", kind = "type", alias = '"default"|"smooth"|AnimationSpec',
          summary = "How an animated call moves: \"default\", \"smooth\" or a spec table.",
          text = [[
            "default" is a spring with response 0.55 and damping fraction 1; "smooth" is a
            spring with response 0.5 and damping fraction 1. A table picks the timing:
            `{spring={...}}` or `{easeInOut={duration=...}}`.]],
        },
        {
          name = "AnimationSpec", kind = "type",
          summary = "A timing: {spring={response=, dampingFraction=}} or {easeInOut={duration=}}.",
          fields = {
            { "spring?", "SpringTiming", "a spring" },
            { "easeInOut?", "EaseInOutTiming", "an ease-in-out curve" },
          },
          example = [[
            s:fitToContent(800, 600, 50, { easeInOut = { duration = 0.3 } })
            s:zoom(2, 0, 0, { spring = { response = 0.4, dampingFraction = 0.8 } })]],
        },
        {
          name = "SpringTiming", kind = "type",
          summary = "A spring animation: the `spring` key of `AnimationSpec`.",
          fields = {
            { "response?", "number", "about how long the spring takes, in seconds (0 to 60; 0 jumps)",
              default = "0.55" },
            { "dampingFraction?", "number",
              "1 settles without overshoot; less bounces (0.01 to 100, so that it always settles)",
              default = "1" },
          },
        },
        {
          name = "EaseInOutTiming", kind = "type",
          summary = "An ease-in-out animation: the `easeInOut` key of `AnimationSpec`.",
          fields = {
            { "duration", "number", "how long it lasts, in seconds (0 to 3600)" },
          },
        },
        {
          name = "Store:setNodePositions", kind = "method",
          summary = "Moves several nodes, at once (one undo step) or animated.",
          params = {
            { "positions", "table<string, Point>", "node id -> new top-left corner" },
            { "animation?", "Animation", "animate there instead of jumping" },
          },
          returns = { { "boolean", "true when something moved (or an animation started)" } },
          text = [[
            Targets are snapped and descendants move along, as with `moveNode`. Without an
            animation the move is immediate and one undo step. An animated move emits its
            `position` events and records one undo step when it settles; retargeting a
            running animation continues the same step.]],
          example = [[
            s:setNodePositions({ a = { x = 0, y = 0 }, b = { x = 200, y = 0 } }, "default")
            while s:tick(1 / 60) do end]],
        },
        {
          name = "Store:tick", kind = "method",
          summary = "Advances the running animations by dt seconds.",
          params = { { "dt", "number", "seconds" } },
          returns = { { "boolean", "`store.isAnimating` after the step" } },
          example = [[
            while s:tick(1 / 60) do end  -- run every animation to its end]],
        },
        {
          name = "Store.isAnimating", kind = "field", type = "boolean",
          summary = "Whether a viewport or node animation is running.",
          text = [[
            Animated (dashed) edges do not count, so `while store:tick(dt) do end` ends.]],
        },
      },
    },

    ---------------------------------------------------------------------------------------
    {
      id = "layout",
      title = "Automatic layout",
      text = [[
        `store:layout(opts)` places the nodes so nobody has to compute coordinates: the
        layered (Sugiyama) layout puts every edge's target in a later layer than its source
        where cycles allow, keeps crossings few and long edges straight, and routes every edge
        between laid-out nodes through the layers it spans (its `points`). Groups are laid
        out inside, sized to fit their children, and edges between groups pass between them.
        See docs/layout.md for the method, what moving a node afterwards does and pictures.]],
      entries = {
        {
          name = "LayoutOptions", kind = "type",
          summary = "The options of store:layout; every field is optional.",
          fields = {
            { "algorithm", "\"layered\"|\"tree\"", "layered (any graph) or a tidy tree (forests only; an edge that gives a node a second parent, closes a cycle or crosses into another group raises, naming it)", default = "\"layered\"" },
            { "direction", "\"TB\"|\"BT\"|\"LR\"|\"RL\"", "where the layers go: top to bottom, bottom to top, left to right, right to left; default: the document's (a DOT file's rankdir, a Mermaid file's flowchart LR, …; a direction given here does not change it), else TB", default = "\"TB\"" },
            { "nodeSpacing", "number", "free space between neighbours in a layer (0 to 1e6); default: the document's (a DOT file's nodesep), else 24", default = "24" },
            { "layerSpacing", "number", "free space between layers (0 to 1e6); default: the document's (a DOT file's ranksep, at least 50), else 50", default = "50" },
            { "componentSpacing", "number", "free space between unconnected parts (0 to 1e6); default: the document's node spacing (a DOT file's nodesep), else 40", default = "40" },
            { "equalLayerSpacing", "boolean", "layers' centres equally spaced, every step as long as the longest (layered; DOT's ranksep=equally, which sets the document's default)", default = "false" },
            { "effort", "\"normal\"|\"thorough\"", "how long the layered layout searches for fewer crossings: normal takes tens of milliseconds on a thousand nodes, thorough seconds, and never crosses more", default = "\"normal\"" },
            { "stable", "boolean", "keep the mental map (layered): nodes placed at the last layout keep their layer and their order in it and stay near where they were; new nodes and edges are fitted in", default = "false" },
            { "nodes", "FlowID[]", "lay out only these nodes (and their descendants); the others stay and are avoided. With stable: fit these in as new among all the others, which keep their places and move only to make room" },
            { "group", "FlowID", "lay out the descendants of this group inside it and resize it; not with nodes" },
            { "pinned", "FlowID[]", "nodes that keep their positions, with their descendants (also every node whose data has pinned = true)" },
            { "aspectRatio", "number", "wanted width / height of the picture (layered, every node): a long layout is cut between layers into parts laid side by side, a top-to-bottom chain into columns, a left-to-right pipeline into rows, when that comes nearer the ratio; edges between parts run around them in lanes of their own. Not with stable, nodes, group or pinned nodes" },
            { "ranks", "LayoutRanks", "rank constraints (layered), honoured with those the document holds (a DOT file's rank=same subgraphs, its edges' minlen, constraint and weight)" },
          },
        },
        {
          name = "LayoutRanks", kind = "type",
          summary = "Rank constraints of store:layout (DOT's rank subgraphs, edge minlen, weight, …).",
          fields = {
            { "same", "FlowID[][]", "sets of nodes that share a layer, one list per set" },
            { "min", "FlowID[]", "nodes on the first layer (others may share it)" },
            { "max", "FlowID[]", "nodes on the last layer (others may share it)" },
            { "source", "FlowID[]", "nodes on the first layer, alone there" },
            { "sink", "FlowID[]", "nodes on the last layer, alone there" },
            { "minlen", "table<FlowID, integer>", "edges by id with the fewest layers each spans, 0 to 1000 (0: its ends may share a layer; where an edge between layers has a label, every edge spans twice its layers and the labels lie in the half layers between, as in dot)" },
            { "constraint", "table<FlowID, boolean>", "edges by id that take part in layering (false: drawn between the layers their ends get from the other edges, down, up or along a layer)" },
            { "weight", "table<FlowID, integer>", "edges by id with how much keeping each short (in layers) and straight counts, 0 to 10000 (default 1; 0: not at all, though its minlen still holds)" },
          },
        },
        {
          name = "LayoutStats", kind = "type",
          summary = "What store:layout did.",
          fields = {
            { "crossings", "integer", "crossings between edges of neighbouring layers, summed over the levels of groups" },
            { "layers", "integer", "layers of the top level" },
            { "width", "number", "width of the laid-out nodes' bounding box" },
            { "height", "number", "height of that box" },
            { "reversedEdges", "integer", "edges drawn against the direction to break cycles" },
            { "nodes", "integer", "nodes placed (groups included)" },
            { "edges", "integer", "edges given routes" },
          },
        },
        {
          name = "Store:layout", kind = "method",
          summary = "Lays the diagram out automatically; one undo step.",
          params = { { "opts?", "LayoutOptions", "what to lay out and how" } },
          returns = { { "LayoutStats" } },
          text = [[
            Changes, as one undo step "Layout": the position of every laid-out node, the size
            of every laid-out group, the handles of nodes that have the default handles
            (turned so targets face the previous layer and sources the next: top/bottom for
            TB, left/right for LR), and the `points` of every edge between laid-out nodes.
            Node events come first, then edge events, each in store order. Nodes with declared
            handles keep them; crossing reduction orders their edges by the handles' sides.

            Pinned nodes (and nodes outside `nodes`) keep their positions; the laid-out part
            keeps the top-left corner its nodes had and moves right until it meets none of
            them. A pinned node inside a laid-out group raises. The same store always gives
            the same layout, whatever the `effort`; `effort = "thorough"` takes seconds on a
            thousand nodes instead of milliseconds and never gives more crossings.

            `stable = true` keeps what the reader has learnt: the nodes the store held at its
            last layout (before any layout: those whose box overlaps no earlier node's) keep
            their layer and their order within it, and move as little as the new nodes and
            edges, which are fitted in, let them; the drawing stays where most of them were.
            With `nodes`, those are fitted in among all the others, which move only where the
            new ones need room. A stable layout takes about the time of a fresh one or less.

            `ranks` constrains the layering as dot's `rank` subgraphs do, together with the
            rank sets the document holds (`"diagram".ranks`, which `flow.open` reads from a
            DOT file): each `same` set shares a layer, `min` nodes take the first layer and
            `max` nodes the last (`source` and `sink`: alone there) of the whole drawing, as
            with dot. `minlen`, `constraint` and `weight` do for single edges what DOT's edge
            attributes do, together with those the document holds (`"diagram".edgeRanks`, also
            read from a DOT file): an edge spans at least `minlen` layers, one whose
            `constraint` is false does not hold its target below its source, and a heavier
            edge is kept shorter and straighter than the others. An edge into a `min`
            node or out of a `max` node, or one that a `same` set turns into a cycle, is drawn
            against the flow; an edge between two nodes of one set runs along their layer.
            A set holds among the nodes laid out together: within each group laid out on its
            own, or across the whole graph when groups are laid out as boxes around their nodes.

            Unknown keys, a bad direction, algorithm or effort, a negative or non-finite
            spacing, a `stable` that is not a boolean, an unknown id (in `ranks` too: the
            error names `ranks.same` or `ranks.minlen` and the id), a `minlen` that is not an
            integer from 0 to 1000, a `weight` that is not one from 0 to 10000, a `constraint`
            that is not a boolean, or both `nodes` and
            `group` raise and change
            nothing.]],
          example = [[
            s:layout()
            s:addNode{ id = "cache" }; s:connect("api", "cache")
            s:layout{ stable = true }               -- the rest stays where it was
            s:layout{ direction = "LR", nodeSpacing = 30, layerSpacing = 50 }
            s:layout{ group = "stage1" }
            s:layout{ algorithm = "tree" }          -- an org chart
            s:layout{ effort = "thorough" }         -- fewer crossings, for a picture to keep
            s:layout{ ranks = { same = { { "api", "db" } }, sink = { "log" } } }
            s:layout{ ranks = { minlen = { e1 = 2 }, constraint = { e7 = false } } }
            s:layout{ ranks = { weight = { e3 = 5 } } }  -- kept shorter, straighter
            local stats = s:layout{ pinned = { "legend" } }
            print(stats.crossings, stats.width, stats.height)]],
        },
      },
    },

    ---------------------------------------------------------------------------------------
    {
      id = "routing",
      title = "Routing",
      text = [[
        Edges whose `pathType` is "orthogonal" are routed by the store: horizontal and
        vertical runs that keep clear of every node but their own two ends (and groups
        around them), with the fewest bends and then the shortest length, drawn with rounded
        corners. The route is the edge's `points`, so it is part of `edgeGeometry`, hit
        testing, the drawing and the document. Runs of several edges that share a corridor
        are spread apart, and edges that arrive at (or leave) one side of a node attach at
        distinct points of it.

        Routing is live: every call that moves, resizes, adds or removes a node, or adds or
        changes an orthogonal edge, routes again the edges it touches, in the same undo step,
        and their new points come in the same `onEdgesChange` batch (as `replace` events,
        or in the `add` event of an edge the call adds). Routes away from a change are kept.
        A loaded document keeps the routes it holds until something changes near them;
        `store:route()` routes everything afresh. See docs/routing.md.]],
      entries = {
        {
          name = "Store:route", kind = "method",
          summary = "Routes every orthogonal edge afresh; one undo step.",
          returns = { { "integer", "how many edges got new points" } },
          text = [[
            One undo step "Route" (none when nothing changed), with a `replace` event for
            each edge whose points changed. Live routing keeps routes that a change does not
            touch; this gives every edge the route routing from scratch gives it, the same for
            the same diagram.]],
          example = [[
            local s = flow.newStore()
            s:addNode{ id = "a", x = 0, y = 0 }
            s:addNode{ id = "b", x = 0, y = 300 }
            s:addNode{ id = "wall", x = -20, y = 130 }
            s:connect("a", "b", { pathType = "orthogonal" })   -- routed around "wall"
            s:moveNode("wall", 300, 130)                       -- routed again: straight down
            print(s:route())                                   -- 0: already as from scratch]],
        },
      },
    },

    ---------------------------------------------------------------------------------------
    {
      id = "connections",
      title = "Connections",
      text = [[
        A connection is drawn from a handle to a handle of the opposite type on another
        node, by the pointer (section 7) or by the draft calls below. A finished draft makes
        a proposal, which the validator accepts or rejects.]],
      entries = {
        {
          name = "ConnectionProposal", kind = "type",
          summary = "A proposed edge: the endpoints a finished connection would join.",
          fields = {
            { "sourceNodeID", "string", "the node the edge would leave" },
            { "sourceHandleID?", "string", "its source handle" },
            { "targetNodeID", "string", "the node the edge would enter" },
            { "targetHandleID?", "string", "its target handle" },
          },
        },
        {
          name = "Store.onConnect", kind = "callback",
          summary = "Receives each proposal that passed validation; nil: the store adds the edge.",
          params = { { "p", "ConnectionProposal", "the accepted proposal" } },
          text = [[
            When `onConnect` is nil the store adds the edge itself: the id is chosen as in
            `addEdge`, the path type is `configuration.defaultEdgePathType`, and it is one
            undo step. With a handler, the handler decides what to add.]],
          example = [[
            s.onConnect = function(p)
              s:addEdge{ sourceNodeID = p.sourceNodeID, sourceHandleID = p.sourceHandleID,
                         targetNodeID = p.targetNodeID, targetHandleID = p.targetHandleID,
                         pathType = "smoothStep" }
            end]],
        },
        {
          name = "Store.connectionValidator", kind = "callback",
          summary = "Decides whether a proposal is accepted; the default rejects self-loops.",
          params = { { "p", "ConnectionProposal", "the proposal" } },
          returns = { { "boolean", "true to accept" } },
          example = [[
            s.connectionValidator = function(p)
              return p.sourceNodeID ~= p.targetNodeID and #s:node(p.targetNodeID):edges() < 3
            end]],
        },
        {
          name = "Store.onConnectionRejected", kind = "callback",
          summary = "Receives each proposal that the validator rejected.",
          params = { { "p", "ConnectionProposal", "the rejected proposal" } },
        },
        {
          name = "Store:beginConnection", kind = "method",
          summary = "Starts a connection draft from a handle.",
          params = {
            { "nodeID", "FlowID", "the node" },
            { "handleID", "string", "the handle the connection starts from" },
          },
          returns = { { "boolean", "true" } },
          text = [[
            Raises while a draft exists, and for an unknown node or handle. The draft's
            current point starts at the handle's point.]],
        },
        {
          name = "Store:updateConnection", kind = "method",
          summary = "Moves the draft's end to a canvas point and picks the target handle.",
          params = {
            { "x", "number", "canvas x" },
            { "y", "number", "canvas y" },
          },
          returns = { { "boolean", "true when the draft changed" } },
          text = [[
            The nearest handle of the opposite type on another node, within
            `connectionRadius` (or its `connectionTargetArea`), becomes the target; else
            there is none. Raises without a draft.]],
        },
        {
          name = "Store:endConnection", kind = "method",
          summary = "Finishes the draft: validates the proposal and calls the callbacks.",
          params = {
            { "targetNodeID?", "FlowID", "an explicit target node" },
            { "targetHandleID?", "string", "an explicit target handle" },
          },
          returns = { { "boolean", "true when the proposal was accepted" } },
          text = [[
            With an explicit target the proposal is built from it (self-loops included) and
            validated. Without one the draft's target is used; when there is none the draft
            is cancelled, neither callback is called, and it returns false. An accepted
            proposal goes to `onConnect` (or becomes an edge), a rejected one to
            `onConnectionRejected`. Raises without a draft.]],
          example = [[
            -- node b's "target" handle is at (260, 0)
            s:beginConnection("a", "source")
            s:updateConnection(255, 10)
            print(s:endConnection())  --> true: the edge a -> b was added]],
        },
        {
          name = "Store:cancelConnection", kind = "method",
          summary = "Drops the draft without calling any callback.",
          returns = { { "boolean", "false when there was no draft" } },
        },
        {
          name = "ConnectionDraftState", kind = "type",
          summary = "A connection being drawn: its source and its current end.",
          fields = {
            { "sourceNodeID", "string", "the node it starts from" },
            { "sourceHandleID?", "string", "the handle it starts from" },
            { "sourceHandleType", "HandleType", "that handle's type" },
            { "sourceHandlePosition", "HandlePosition", "that handle's side" },
            { "targetNodeID?", "string", "the target found so far" },
            { "targetHandleID?", "string", "the target handle found so far" },
            { "currentPoint", "Point", "the end of the draft (canvas)" },
          },
        },
        {
          name = "Store.connectionDraft", kind = "field", type = "ConnectionDraftState?",
          summary = "The connection being drawn, or nil.",
        },
      },
    },

    ---------------------------------------------------------------------------------------
    {
      id = "pointer",
      title = "Pointer input",
      text = [[
        The gesture state machine, driven with screen coordinates. Dragging a node moves it
        (and the other selected nodes), dragging from a handle draws a connection, dragging
        empty canvas pans, shift+drag on empty canvas selects by rectangle, a tap selects
        and command+tap adds to the selection. A press and release that moved less than 3
        points is a tap. One drag is one undo step.

        Time is virtual: it moves only through `store:advanceClock`. A second tap on the same
        target less than 0.3 s of clock time after the first is a double tap; the double-tap
        callbacks fire even when selection is disabled.]],
      entries = {
        {
          name = "Modifiers", kind = "type",
          summary = "The modifier keys held during a press or tap.",
          fields = {
            { "command?", "boolean", "adds to the selection instead of replacing it" },
            { "shift?", "boolean", "a drag on empty canvas selects by rectangle" },
          },
        },
        {
          name = "Store:pointerDown", kind = "method",
          summary = "Presses the pointer at a screen point.",
          params = {
            { "x", "number", "screen x" },
            { "y", "number", "screen y" },
            { "mods?", "Modifiers", "keys held" },
          },
          returns = { { "boolean", "true when the press did something" } },
          text = [[
            What the gesture becomes is decided by what is under the press: a handle, a
            node or the canvas. command+drag on a node does nothing; command+drag on empty
            canvas pans. Shift only matters when the drag starts on empty canvas, and with
            selection or multi-selection disabled it pans instead. Dragging a node that is
            not draggable selects it and moves nothing.]],
          example = [[
            s:pointerDown(60, 30)
            s:pointerMove(160, 30)
            s:pointerUp(160, 30)  -- the node under (60, 30) moved by 100 / zoom]],
        },
        {
          name = "Store:pointerMove", kind = "method",
          summary = "Moves the pointer; without a press it only hovers.",
          params = {
            { "x", "number", "screen x" },
            { "y", "number", "screen y" },
          },
          returns = { { "boolean", "true when it changed something" } },
        },
        {
          name = "Store:pointerUp", kind = "method",
          summary = "Releases the pointer, ending the gesture.",
          params = {
            { "x", "number", "screen x" },
            { "y", "number", "screen y" },
          },
          returns = { { "boolean", "false without a press" } },
        },
        {
          name = "Store:pointerCancel", kind = "method",
          summary = "Ends any gesture; the pointer is up afterwards.",
          returns = { { "boolean", "true when a gesture was cancelled" } },
          text = [[
            A node drag puts the nodes back at their start positions and records no step; a
            connection is cancelled without callbacks; a rubber band keeps the selection
            made so far; a pan keeps the distance panned so far.]],
        },
        {
          name = "Store:tap", kind = "method",
          summary = "A press and release at one screen point.",
          params = {
            { "x", "number", "screen x" },
            { "y", "number", "screen y" },
            { "mods?", "Modifiers", "keys held" },
          },
          returns = { { "boolean", "true when it changed something" } },
          text = [[
            Selects what is under the point (a node, else an edge; on empty canvas it
            clears the selection); with command it adds to the selection instead. A second
            tap on the same target less than 0.3 s of clock time later calls
            `onNodeDoubleTap`, `onEdgeDoubleTap` or `onCanvasDoubleTap`.]],
          example = [[
            s.onNodeDoubleTap = function(id) print("open", id) end
            s:tap(60, 30); s:advanceClock(0.1); s:tap(60, 30)  --> open a]],
        },
        {
          name = "Store:hover", kind = "method",
          summary = "Sets the hovered node from a screen point.",
          params = {
            { "x", "number", "screen x" },
            { "y", "number", "screen y" },
          },
          returns = { { "boolean", "true when the hovered node changed" } },
        },
        {
          name = "Store:scroll", kind = "method",
          summary = "Pans by exactly (dx, dy) screen points.",
          params = {
            { "dx", "number", "horizontal distance" },
            { "dy", "number", "vertical distance" },
          },
          returns = { { "boolean", "false when panning is disabled" } },
        },
        {
          name = "Store:magnify", kind = "method",
          summary = "Zooms by a factor around a screen point.",
          params = {
            { "factor", "number", "the zoom multiplier" },
            { "x", "number", "screen x of the fixed point" },
            { "y", "number", "screen y of the fixed point" },
          },
          returns = { { "boolean", "false when zooming is disabled" } },
        },
        {
          name = "Store:advanceClock", kind = "method",
          summary = "Moves the virtual clock forward by some seconds.",
          params = { { "seconds", "number", "how far" } },
          returns = { { "boolean", "true when the clock moved" } },
          text = [[
            Double taps are timed on this clock; it moves only through `store:advanceClock`.]],
        },
        {
          name = "Store.clock", kind = "field", type = "number",
          summary = "The virtual clock, in seconds.",
        },
        {
          name = "Store.onNodeDoubleTap", kind = "callback",
          summary = "Called with the node's id on a double tap on a node.",
          params = { { "id", "string", "the node" } },
        },
        {
          name = "Store.onEdgeDoubleTap", kind = "callback",
          summary = "Called with the edge's id on a double tap on an edge.",
          params = { { "id", "string", "the edge" } },
        },
        {
          name = "Store.onCanvasDoubleTap", kind = "callback",
          summary = "Called with the canvas point of a double tap on empty canvas.",
          params = { { "point", "Point", "where the second tap was (canvas)" } },
        },
      },
    },

    ---------------------------------------------------------------------------------------
    {
      id = "drop",
      title = "Drop targets",
      text = [[
        External drags (files, palette items) over the canvas. The handler `onDrop` decides
        whether the item under the pointer accepts the drop; while it accepts, that node or
        edge is the drop target.]],
      entries = {
        {
          name = "DropPhase", kind = "type",
          summary = "The phase of an external drag passed to `onDrop`.",
          values = {
            { "updated", "the drag moved over the canvas" },
            { "performed", "the item was dropped" },
            { "exited", "the drag left the canvas" },
          },
        },
        {
          name = "DropTarget", kind = "type",
          summary = "What is under a drop: {kind=\"node\", id=}, {kind=\"edge\", id=} or {kind=\"canvas\"}.",
          fields = {
            { "kind", '"node"|"edge"|"canvas"', "what is under the pointer" },
            { "id?", "string", "the node or edge" },
          },
        },
        {
          name = "DropEvent", kind = "type",
          summary = "Where a drag is and what it carries.",
          fields = {
            { "x", "number", "canvas x" },
            { "y", "number", "canvas y" },
            { "target", "DropTarget", "what is under the pointer" },
            { "payload", "any", "the value given to `dragOver` or `drop`, as it is" },
          },
        },
        {
          name = "Store.onDrop", kind = "callback",
          summary = "Handles external drags; returns whether the drop is accepted.",
          params = {
            { "phase", "DropPhase", "what happened" },
            { "event", "DropEvent?", "where and what; nil for \"exited\"" },
          },
          returns = { { "boolean", "true to accept" } },
          example = [[
            s.onDrop = function(phase, event)
              if phase == "performed" then
                s:addNode{ x = event.x, y = event.y, data = event.payload }
              end
              return event ~= nil and event.target.kind == "canvas"
            end]],
        },
        {
          name = "Store:dragOver", kind = "method",
          summary = "An external drag moves to a screen point: calls `onDrop(\"updated\", ...)`.",
          params = {
            { "x", "number", "screen x" },
            { "y", "number", "screen y" },
            { "payload?", "any", "what is dragged; passed to the handler as it is" },
          },
          returns = { { "boolean", "the handler's answer; false without a handler" } },
          text = [[
            When the handler returns true, the node or edge under the pointer becomes the
            drop target; else there is none. Without a handler nothing is highlighted.]],
        },
        {
          name = "Store:drop", kind = "method",
          summary = "Drops at a screen point: calls `onDrop(\"performed\", ...)`, clears the target.",
          params = {
            { "x", "number", "screen x" },
            { "y", "number", "screen y" },
            { "payload?", "any", "what is dropped" },
          },
          returns = { { "boolean", "the handler's result; false without a handler" } },
        },
        {
          name = "Store:dragExit", kind = "method",
          summary = "The drag leaves: calls `onDrop(\"exited\", nil)` and clears the target.",
          returns = { { "boolean", "true when a drop target was cleared" } },
        },
        {
          name = "Store:setDropTargetNode", kind = "method",
          summary = "Sets the drop target node directly, or clears it with nil.",
          params = { { "id", "FlowID?", "the node, or nil" } },
          returns = { { "boolean", "true when it changed" } },
        },
        {
          name = "Store:setDropTargetEdge", kind = "method",
          summary = "Sets the drop target edge directly, or clears it with nil.",
          params = { { "id", "FlowID?", "the edge, or nil" } },
          returns = { { "boolean", "true when it changed" } },
        },
        {
          name = "Store.dropTargetNodeID", kind = "field", type = "string?",
          summary = "The id of the drop target node, or nil.",
        },
        {
          name = "Store.dropTargetEdgeID", kind = "field", type = "string?",
          summary = "The id of the drop target edge, or nil.",
        },
      },
    },

    ---------------------------------------------------------------------------------------
    {
      id = "accessories",
      title = "Accessory placement",
      text = [[
        An accessory is a small view (a toolbar, an inspector) shown next to the selected
        node or edge. The store computes where its centre goes on the screen, flipping to
        the other side when the preferred side would be clipped.]],
      entries = {
        {
          name = "AccessoryRequest", kind = "type",
          summary = "What `store:accessoryPosition` needs: the item, the sizes and the side.",
          fields = {
            { "node?", "FlowID", "the node the accessory belongs to (or give `edge`)" },
            { "edge?", "FlowID", "the edge the accessory belongs to (or give `node`)" },
            { "size", "Size", "the accessory's size" },
            { "canvasSize", "Size", "the size of the visible canvas" },
            { "placement?", "Placement",
              "preferred side; default from `nodeAccessoryPlacement`, else \"top\"" },
            { "spacing?", "number", "gap between item and accessory", default = "8" },
            { "margin?", "number", "smallest distance to the canvas border", default = "8" },
          },
        },
        {
          name = "PlacedAccessory", kind = "type",
          summary = "Where an accessory goes: its centre (screen) and the side used.",
          fields = {
            { "x", "number", "centre x (screen)" },
            { "y", "number", "centre y (screen)" },
            { "placement", "Placement", "the side actually used after flipping" },
          },
        },
        {
          name = "Store:accessoryPosition", kind = "method",
          summary = "The screen position of an accessory for a node or an edge.",
          params = {
            { "request", "AccessoryRequest", "the item, the sizes and the preferred side" },
          },
          returns = { { "PlacedAccessory" } },
          text = [[
            A node's accessory is placed around its frame, an edge's around its label
            position. An explicit `placement` wins over `nodeAccessoryPlacement`.]],
          example = [[
            local p = s:accessoryPosition{ node = "a", size = { width = 200, height = 80 },
                                           canvasSize = { width = 800, height = 600 } }
            print(p.x, p.y, p.placement)]],
        },
        {
          name = "Store.nodeAccessoryPlacement", kind = "callback",
          summary = "Chooses the default accessory side per node.",
          params = { { "node", "Node", "the node" } },
          returns = { { "Placement" } },
          text = [[
            An explicit `placement` argument wins over it. A callback that raises or returns
            an invalid value is reported, and "top" is used.]],
          example = [[
            s.nodeAccessoryPlacement = function(node)
              return node.y < 100 and "bottom" or "top"
            end]],
        },
        {
          name = "AccessoriesRequest", kind = "type",
          summary = "What `store:accessories` needs: the accessory and canvas sizes.",
          fields = {
            { "size", "Size", "the accessory's size" },
            { "canvasSize", "Size", "the size of the visible canvas" },
          },
        },
        {
          name = "AccessoryItem", kind = "type",
          summary = "An accessory to show: the item it belongs to and where it goes.",
          fields = {
            { "kind", '"node"|"edge"', "the kind of the selected item" },
            { "id", "string", "its id" },
            { "x", "number", "centre x (screen)" },
            { "y", "number", "centre y (screen)" },
            { "placement", "Placement", "the side actually used after flipping" },
          },
        },
        {
          name = "Store:accessories", kind = "method",
          summary = "The accessory to show: one entry when exactly one item is selected.",
          params = {
            { "request", "AccessoriesRequest", "the accessory and canvas sizes" },
          },
          returns = { { "AccessoryItem[]", "one entry, or empty" } },
          text = [[
            Exactly one node or edge must be selected in all; otherwise the array is empty.]],
        },
      },
    },

    ---------------------------------------------------------------------------------------
    {
      id = "undo",
      title = "Undo",
      text = [[
        Every call at the top level that changes the document (nodes, edges, their fields,
        positions, sizes, parents, grouping, deleteSelection) is one undo step, and so is a
        completed pointer drag. Selection, focus, hover, viewport, drop-target and
        animated-edge calls change no document content and record no step. Undo and redo
        emit the change events of what they restore.]],
      entries = {
        {
          name = "Store:undo", kind = "method",
          summary = "Undoes the last step.",
          returns = { { "boolean", "true when something was undone" } },
        },
        {
          name = "Store:redo", kind = "method",
          summary = "Redoes the last undone step.",
          returns = { { "boolean", "true when something was redone" } },
        },
        {
          name = "Store.canUndo", kind = "field", type = "boolean",
          summary = "Whether there is a step to undo.",
        },
        {
          name = "Store.canRedo", kind = "field", type = "boolean",
          summary = "Whether there is a step to redo.",
        },
        {
          name = "Store:transaction", kind = "method",
          summary = "Runs fn(store) as one undo step; rolls everything back if it raises.",
          params = {
            { "fn", "fun(store: Store): any", "the work" },
          },
          returns = { { "any", "what fn returns" } },
          result = "what fn returns",
          text = [[
            Change events are held and delivered once at the end, merged into one node
            batch and one edge batch. If fn raises, the store is put back exactly as it was
            before (document, selection, focus, hover, drop targets, draft, viewport; the
            clock is not rewound), no events are delivered, and the error propagates.]],
          example = [[
            s:transaction(function(st)
              local a = st:addNode{ id = "a", x = 0, y = 0 }
              local b = st:addNode{ id = "b", x = 200, y = 0 }
              st:connect("a", "b")
            end)
            s:undo()  -- removes all three]],
        },
      },
    },

    ---------------------------------------------------------------------------------------
    {
      id = "events",
      title = "Change events",
      text = [[
        Each public call delivers at most one `onNodesChange` call and then at most one
        `onEdgesChange` call, each batch in store order, and only for real changes: a call
        that changes nothing emits nothing. An operation that touches many items visits
        them in store order, and two changes to one item keep their order (a new group gets
        `add`, then `select`). Removing a selected item emits only its `remove`.

        Inside `store:transaction` and between `beginInteractiveUpdates` and
        `endInteractiveUpdates` events are held and delivered once at the end: all the
        per-call changes concatenated in order, not a net summary. An error raised inside a
        callback is reported to the host's error sink (stderr in flowrepl) with a
        traceback; the call that triggered it does not raise and its change stands.]],
      entries = {
        {
          name = "NodeChange", kind = "type",
          summary = "One change to a node, as delivered to `onNodesChange`.",
          fields = {
            { "type", '"add"|"remove"|"position"|"select"|"dimensions"|"replace"',
              "what happened" },
            { "id", "string", "the node" },
            { "node?", "NodeTable", "the node (\"add\", \"replace\")" },
            { "position?", "Point", "the new position (\"position\")" },
            { "selected?", "boolean", "the new selection state (\"select\")" },
            { "size?", "Size", "the new size (\"dimensions\")" },
          },
        },
        {
          name = "EdgeChange", kind = "type",
          summary = "One change to an edge, as delivered to `onEdgesChange`.",
          fields = {
            { "type", '"add"|"remove"|"select"|"replace"', "what happened" },
            { "id", "string", "the edge" },
            { "edge?", "EdgeTable", "the edge (\"add\", \"replace\")" },
            { "selected?", "boolean", "the new selection state (\"select\")" },
          },
        },
        {
          name = "Store.onNodesChange", kind = "callback",
          summary = "Receives each batch of node changes.",
          params = { { "changes", "NodeChange[]", "the batch, in store order" } },
          example = [[
            s.onNodesChange = function(changes)
              for _, c in ipairs(changes) do print(c.type, c.id) end
            end]],
        },
        {
          name = "Store.onEdgesChange", kind = "callback",
          summary = "Receives each batch of edge changes, after the node batch of the same call.",
          params = { { "changes", "EdgeChange[]", "the batch, in store order" } },
        },
        {
          name = "Store:beginInteractiveUpdates", kind = "method",
          summary = "Holds change events until `endInteractiveUpdates`.",
          returns = { { "boolean", "true when holding started" } },
          text = [[
            Calls made meanwhile are still one undo step each; only their events wait.]],
        },
        {
          name = "Store:endInteractiveUpdates", kind = "method",
          summary = "Delivers the held events as one node batch and one edge batch.",
          returns = { { "boolean", "true when holding ended" } },
        },
      },
    },

    ---------------------------------------------------------------------------------------
    {
      id = "documents",
      title = "Documents and output",
      text = [[
        A document is the JSON form of a store's nodes, edges and viewport. Flags
        (`isSelected`, `isHovered`, `isDropTarget`) and the animated edges are not part of
        it.]],
      entries = {
        {
          name = "Store:encode", kind = "method",
          summary = "The diagram as text: a JSON document, a DOT graph or a Mermaid flowchart.",
          params = {
            { "opts?", "EncodeOptions", "the format to write", default = '{ format = "json" }' },
          },
          returns = { { "string" } },
          text = [[
            The writer of what `flow.decode(text, opts)` and `store:load(text, opts)` read,
            with the same `format` names (`store:save(path)` and `flow.open(path)` are the
            pair for files). JSON: nodes, edges and viewport with sorted keys; positions and
            sizes as `[x, y]` and `[w, h]` arrays; a node without data is written with
            `"data": null`; numbers use the shortest form that reads back exactly. DOT and
            Mermaid: as `store:dot` and `store:mermaid` describe.]],
          example = [[
            local copy = flow.decode(s:encode())
            print(s:encode{ format = "dot" })]],
        },
        {
          name = "EncodeOptions", kind = "type",
          summary = "What `store:encode` writes.",
          fields = {
            { "format?", "DiagramFormat", "the language of the text", default = '"json"' },
          },
        },
        {
          name = "Store:export", kind = "method",
          summary = "The document as a JSON string (deprecated: `store:encode()`).",
          returns = { { "string" } },
          text = [[
            The same as `store:encode()`, kept for scripts written before it.]],
        },
        {
          name = "Store:load", kind = "method",
          summary = "Replaces the store's content with a JSON document, a DOT graph or a Mermaid flowchart.",
          params = {
            { "text", "string", "the document text" },
            { "opts?", "LoadOptions", "the format of the text", default = '{ format = "json" }' },
          },
          returns = {
            { "true?", "true on success", name = "ok" },
            { "string[]|string", "the warnings, or the error message", name = "warnings" },
          },
          result = "true and warnings, or nil and a message",
          text = [[
            Text that is not valid UTF-8 (the message names the offset of the first bad
            byte), not JSON, or a document of the wrong shape (missing required keys,
            wrong types, unknown enum strings), gives `nil, message` and leaves the store
            unchanged. A well-formed document is loaded leniently, in any node order, and
            `warnings` (possibly empty) names everything that was repaired: duplicate ids
            dropped (the first wins), edges that dangle or name an undeclared handle or a
            handle of the wrong type dropped, invalid parents cleared (a parent cycle is
            broken at its first node in document order), edge parents that are missing or
            not containers cleared. A node without a "data" key gets nil data.

            With `{ format = "dot" }` or `{ format = "mermaid" }` the text is read as a DOT
            graph or a Mermaid flowchart (docs/formats.md): a syntax error gives
            `nil, message` naming the line and column, and `warnings` also names every
            attribute, shape or statement that was not mapped (one line per kind, with a
            count). A graph whose nodes do not all have positions is laid out (layered, in
            the direction the text names) before it replaces the content; the direction
            and DOT's `nodesep` and `ranksep` are kept in the document (`"diagram"`), the
            defaults of a later `store:layout{}`. A statement that
            would make the graph's edges more than `maximumEdges` (200,000 by default) gives
            `nil, message` naming the limit before any edge is made.

            Loading clears the undo history and emits no change events.]],
          example = [[
            local ok, warnings = s:load(text)
            if not ok then error(warnings) end
            assert(s:load("digraph { a -> b -> c }", { format = "dot" }))]],
        },
        {
          name = "LoadOptions", kind = "type",
          summary = "How `store:load`, `flow.decode` and `flow.open` read their text.",
          fields = {
            { "format?", "DiagramFormat", "the language of the text", default = '"json"' },
            { "maximumEdges?", "integer", "the most edges DOT or Mermaid text may make (docs/formats.md, \"Limits\")", default = "200000" },
          },
        },
        {
          name = "DiagramFormat", kind = "type",
          summary = "A text format a store reads and writes.",
          values = {
            { "json", "the store's own document" },
            { "dot", "the Graphviz DOT language" },
            { "mermaid", "a Mermaid flowchart" },
          },
        },
        {
          name = "Store:dot", kind = "method",
          summary = "The diagram as a Graphviz DOT graph (deprecated: `store:encode{format = \"dot\"}`).",
          returns = { { "string" } },
          text = [[
            A `digraph`: groups as `cluster` subgraphs, nested; titles as labels; shapes,
            styles and classes as attributes; positions as `pos` (points, y up) and sizes as
            `width`/`height` (inches), so `neato -n` draws the store's layout and `dot`
            draws its own. The document's direction and spacing (`"diagram"`: a DOT file's
            `rankdir`, `nodesep`, `ranksep` as read) are written as those graph attributes.
            Reading it back gives the same nodes, edges, labels, groups and shapes (stadium
            and document shapes come back as rounded and plain boxes). A node read from an
            HTML-like table is written as that table's HTML-like label, a drawn polygon as
            `shape=polygon` with its sides, skew, distortion, orientation and peripheries,
            so dot draws them as they are drawn here.]],
          example = [[
            print(s:encode{ format = "dot" })
            assert(s:save("diagram.dot"))]],
        },
        {
          name = "Store:mermaid", kind = "method",
          summary = "The diagram as a Mermaid flowchart (deprecated: `store:encode{format = \"mermaid\"}`).",
          returns = { { "string" } },
          text = [[
            `flowchart` with the document's direction (`"diagram".direction`: a Mermaid
            file's or a DOT file's `rankdir`, as read), else the one most edges run in;
            groups as subgraphs; titles,
            shapes, edge kinds (dashed `-.->`, thick `==>`, no arrowhead `---`), edge labels,
            the class sheet as `classDef`, classes and own styles. Mermaid has no positions:
            reading it back lays the graph out again. Mermaid has no tables or polygons: a
            table is written as its text, a row a line, a polygon as its nearest shape, and a
            `%%` comment says what is lost.]],
        },
        {
          name = "Store:save", kind = "method",
          summary = "Writes the store to a file; the extension picks the format.",
          params = {
            { "path", "string", "ends in .json (document), .dot or .gv (DOT), .mmd (Mermaid), .svg (drawing), .png (raster) or .pdf (page)" },
            { "opts?", "SvgOptions|EncodeOptions", "drawing options, as for `store:svg`; or `format`, which writes that text whatever the extension" },
          },
          returns = {
            { "true?", "true on success", name = "ok" },
            { "string|string[]?", "the error message; or, after a drawing, its warnings when there are some", name = "message" },
          },
          result = "true (and the drawing's warnings, if any), or nil and a message",
          text = [[
            The writer of what `flow.open(path, opts)` reads: with `{ format = "dot" }` (or
            "json", "mermaid") the file gets that text whatever its extension.

            An unknown extension, or a path with a NUL byte, raises; a failure to write
            returns `nil, message` (the message starts with `save:`). PNG and
            PDF files are made from the SVG drawing by `rsvg-convert` (Debian's
            librsvg2-bin); a PNG has the SVG's size in pixels (times `scale`), at most 16384
            on its longer side. A drawing (.svg, .png, .pdf) that has warnings returns them
            as a second value, as `store:svg` does.]],
          example = [[
            assert(s:save("diagram.json"))
            assert(s:save("diagram.dot"))
            assert(s:save("diagram.svg", { theme = "dark" }))
            assert(s:save("diagram.png", { scale = 2, title = "Orders" }))
            assert(s:save("diagram.pdf"))]],
        },
        {
          name = "Theme", kind = "type",
          summary = "The colour scheme of a drawing.",
          values = {
            { "light", "dark lines on a light background" },
            { "dark", "light lines on a dark background" },
          },
        },
        {
          name = "SvgOptions", kind = "type",
          summary = "Options of `store:svg` and of the pictures `store:save` writes (one set for all).",
          fields = {
            { "fit?", "boolean", "draw every node; false: the current viewport", default = "true" },
            { "padding?", "number", "space around the nodes when fitting (dot's margin is about as wide)", default = "4" },
            { "width?", "number", "canvas width when not fitting", default = "800" },
            { "height?", "number", "canvas height when not fitting", default = "600" },
            { "theme?", "Theme", "colour scheme", default = '"light"' },
            { "background?", "boolean", "whether to draw the background", default = "true" },
            { "scale?", "number", "the picture's size is its drawing's times this (positive)", default = "1" },
            { "handles?", '"used"|"all"|"none"', "which handles are drawn: those an edge uses, all, none",
              default = '"used"' },
            { "title?", "string", "the picture's title (an SVG `<title>`)" },
          },
          text = [[
            Every node is a group `<g id="node-<id>" class="node <classes>">` holding its
            outline (class `shape`), its title and its handles; every edge a path
            `<path id="edge-<id>" class="edge <classes>">`. The style sheet's classes are CSS
            rules in the picture's `<style>`, so a picture can be restyled afterwards.
            docs/rendering.md has the details.]],
        },
        {
          name = "Store:svg", kind = "method",
          summary = "An SVG drawing of the store.",
          params = { { "opts?", "SvgOptions", "what to draw and how" } },
          returns = {
            { "string", "the SVG text", name = "svg" },
            { "string[]?", "the warnings, only when there are some", name = "warnings" },
          },
          text = [[
            Drawn bottom to top: groups, edges, nodes, edge labels. Each edge label (one line
            per "\n") is placed, in store order, at the first spot along its edge that covers
            no node (groups aside) and no label placed before it: the path type's label point,
            then points along the path from halfway outwards, then the same beside the path.
            A label with no free spot goes where it covers least, and a warning says so
            (`the label of edge 'e3' overlaps node 'b'`). Node titles may have several lines
            too. See docs/rendering.md.]],
          example = [[
            local text = s:svg{ fit = false, width = 800, height = 600, theme = "dark" }
            local text, warnings = s:svg()
            for _, w in ipairs(warnings or {}) do print(w) end]],
        },
      },
    },

    ---------------------------------------------------------------------------------------
    {
      id = "queries",
      title = "Graph queries",
      text = [[
        The diagram as a directed graph: nodes are its vertices and edges go from their
        source node to their target node (handles do not matter; the group tree is not
        part of it). A node argument is an id or a Node handle of the store. Every list is
        in store order; lists of lists are ordered by their first node. Parallel edges
        count once, a self-loop is an edge like any other.

        `successors` and `predecessors` read the node's own edges. The others look at the
        whole graph and take time linear in nodes + edges (a breadth-first search, Tarjan's
        and Kahn's algorithms without recursion, so a chain of a million nodes is fine).
        docs/queries.md has examples.]],
      entries = {
        {
          name = "Store:successors", kind = "method",
          summary = "The nodes an edge from this node leads to.",
          params = { { "id", "FlowID|Node", "the node" } },
          returns = { { "Node[]", "each once, in store order" } },
        },
        {
          name = "Store:predecessors", kind = "method",
          summary = "The nodes with an edge to this node.",
          params = { { "id", "FlowID|Node", "the node" } },
          returns = { { "Node[]", "each once, in store order" } },
        },
        {
          name = "Store:reachable", kind = "method",
          summary = "Every node reachable from this node along one or more edges.",
          params = { { "id", "FlowID|Node", "where to start" } },
          returns = { { "Node[]", "in store order" } },
          text = [[
            The node itself is in the list only when it lies on a cycle (a self-loop
            included): the list is its row of the transitive closure.]],
        },
        {
          name = "Store:shortestPath", kind = "method",
          summary = "A path with the fewest edges from one node to another, or nil.",
          params = {
            { "from", "FlowID|Node", "where the path starts" },
            { "to", "FlowID|Node", "where it ends" },
          },
          returns = {
            { "Node[]?", "the nodes along the path, `from` first and `to` last", name = "nodes" },
            { "Edge[]?", "the edges, one fewer than the nodes", name = "edges" },
          },
          result = "nodes and edges, or nil",
          text = [[
            From a node to itself the path is that node and no edge. Of several shortest
            paths the one a breadth-first search finds is returned, each node's outgoing
            edges taken in store order, so the answer never changes between runs.]],
          example = [[
            local nodes, edges = s:shortestPath("received", "shipped")
            if nodes then print(#edges .. " steps") end]],
        },
        {
          name = "Store:path", kind = "method",
          summary = "A path with the fewest edges (deprecated: `store:shortestPath`).",
          params = {
            { "from", "FlowID|Node", "where the path starts" },
            { "to", "FlowID|Node", "where it ends" },
          },
          returns = {
            { "Node[]?", "the nodes along the path", name = "nodes" },
            { "Edge[]?", "the edges", name = "edges" },
          },
          result = "nodes and edges, or nil",
          text = [[
            The same as `store:shortestPath(from, to)`, kept for scripts written before it
            ("path" also names a node's place in the group tree, `store:nodePath`).]],
        },
        {
          name = "Store:cycles", kind = "method",
          summary = "The strongly connected components that contain a cycle.",
          returns = { { "Node[][]", "each component in store order" } },
          text = [[
            A component of two or more nodes, or a single node with a self-loop. Every
            cycle of the diagram runs inside one of them; the nodes of a component are
            exactly those that can reach each other. An empty list: the diagram is acyclic.]],
        },
        {
          name = "Store:topologicalOrder", kind = "method",
          summary = "Every node, each after all the nodes with an edge to it.",
          returns = { { "Node[]" } },
          text = [[
            Whenever several nodes could come next, the first in store order does, so an
            acyclic diagram whose edges all go forwards keeps its store order. A cycle
            raises, naming one: `topologicalOrder: the diagram has a cycle: a -> b -> a`.]],
        },
        {
          name = "Store:components", kind = "method",
          summary = "The weakly connected components: nodes linked by edges in either direction.",
          returns = { { "Node[][]", "each component in store order" } },
          text = [[
            A node without edges is a component of its own.]],
        },
        {
          name = "Store:sources", kind = "method",
          summary = "The nodes no edge arrives at.",
          returns = { { "Node[]" } },
        },
        {
          name = "Store:sinks", kind = "method",
          summary = "The nodes no edge leaves.",
          returns = { { "Node[]" } },
        },
      },
    },

    ---------------------------------------------------------------------------------------
    {
      id = "paths",
      title = "Node paths",
      text = [[
        A node path names a node through the group tree: the ids of its ancestors and its
        own, root first, joined with `/`, like `checkout/payment/card`. Inside an id `%`
        is written `%25` and `/` is written `%2F`; reading a path decodes every `%XX`. A
        path is a deep link: `store:reveal(store:find(path))` shows the node it names, and
        `flowrepl -e` runs that from the command line.]],
      entries = {
        {
          name = "Store:nodePath", kind = "method",
          summary = "The path of a node through the group tree.",
          params = { { "id", "FlowID|Node", "the node" } },
          returns = { { "string" } },
          example = [[
            s:nodePath("card")  --> "checkout/payment/card"]],
        },
        {
          name = "Store:find", kind = "method",
          summary = "The node a path names, or nil.",
          params = { { "path", "string", "a node path" } },
          returns = { { "Node?" } },
          result = "Node or nil",
          text = [[
            The path must start at a root node and name each parent on the way. A path
            that cannot name any node raises: an empty segment (`a//b`, a leading or
            trailing `/`) or a `%` not followed by two hex digits.]],
        },
        {
          name = "Store:reveal", kind = "method",
          summary = "Selects a node, focuses it and fits the viewport around it.",
          params = {
            { "id", "FlowID|Node", "the node" },
            { "width?", "number", "canvas width (screen)", default = "800" },
            { "height?", "number", "canvas height (screen)", default = "600" },
            { "padding?", "number", "space around the node", default = "50" },
          },
          returns = { { "boolean", "whether the selection, focus or viewport changed" } },
          text = [[
            The node becomes the only selection, as with `selectNode`, and is centred in a
            canvas of the given size, zoomed to fit but never above 1 (the fit of
            `fitToContent`, around one node). Like selection and viewport calls, it records
            no undo step.]],
          example = [[
            s:reveal(s:find("checkout/payment/card"))
            -- from the shell:
            -- flowrepl -e 'open("shop.json")' -e 'store:reveal(store:find("checkout/payment"))'
            --   -e 'save("shop.svg", {fit = false})']],
        },
      },
    },

    ---------------------------------------------------------------------------------------
    {
      id = "walker",
      title = "Walking a diagram",
      text = [[
        A Walker runs a diagram as a state machine: it stands on one node and moves along
        the outgoing edges, one step at a time. A guard can close edges. The walker shows
        where it stands: its node is the store's only selection (and has the focus), and
        its ways on are the store's animated edges (the set is replaced). These go through
        the store's selection and animation calls, so a move emits the usual selection
        events and records no undo step; in flowrepl each move also prints a `walk` line.

        The store may change under a walker. When the walker's node is removed, `options`
        and `next` raise (`next: node 'paid' no longer exists`), while `back` and `reset`
        still lead out to a node that exists. Edges of the history may be gone.]],
      entries = {
        {
          name = "Store:walk", kind = "method",
          summary = "A walker standing on a node.",
          params = {
            { "start", "FlowID|Node", "where the walk starts" },
            { "options?", "WalkOptions", "a guard, its context, and whether to show the step" },
          },
          returns = { { "Walker" } },
          example = [[
            local w = s:walk("received", {
              context = { paid = false },
              guard = function(edge, ctx) return edge.label ~= "yes" or ctx.paid end,
            })
            w:next()            -- the one way on
            w.context.paid = true
            w:next("yes")       -- an edge id, a source handle id or a label]],
        },
        {
          name = "WalkOptions", kind = "type",
          summary = "The options of `store:walk`.",
          fields = {
            { "guard?", "fun(edge: Edge, context: any): any",
              "closes the edges for which it returns false or nil" },
            { "context?", "any", "passed to the guard; `walker.context`", default = "{}" },
            { "show?", "boolean", "select the node and animate its ways on", default = "true" },
          },
          text = [[
            The guard is called for each outgoing edge of a node whenever the walker needs
            that node's ways on: for `options`, for `next` (at the node it leaves and, to
            show them, at the node it reaches), for `back` and `reset` (at the node they
            reach). An error it raises propagates, unchanged, out of that call, and the
            walker stays where it was. The guard should not move the walker: a walker
            called from its own guard raises `the walker is busy`.]],
        },
        {
          name = "Walker", kind = "type",
          summary = "A walk through a store's diagram (`store:walk`).",
          text = [[
            `tostring` gives `Walker paid (1 step)`. The walker keeps its store alive; once
            the store is closed every call raises `attempt to use a closed Store`.]],
        },
        {
          name = "Walker.current", kind = "field", type = "Node",
          summary = "The node the walker stands on.",
        },
        {
          name = "Walker.canGoBack", kind = "field", type = "boolean",
          summary = "Whether there is a step to go back.",
        },
        {
          name = "Walker.context", kind = "field", type = "any",
          summary = "The value passed to the guard; assignable.",
        },
        {
          name = "Walker:options", kind = "method",
          summary = "The ways on: the outgoing edges the guard lets through.",
          returns = { { "Edge[]", "in store order" } },
        },
        {
          name = "Walker:next", kind = "method",
          summary = "Takes a step along the way a choice names.",
          params = {
            { "choice?", "string|Edge",
              "an edge id, else a source handle id, else an edge label; none: the one way on" },
          },
          returns = {
            { "Node", "the node reached", name = "node" },
            { "Edge", "the edge taken", name = "edge" },
          },
          result = "the node reached and the edge taken",
          text = [[
            A choice is matched among the ways on: first as an edge id, then as a source
            handle id, then as a label. It raises, naming the ways on, when the choice names
            none of them, names several (two edges from one handle, or with one label), is
            closed by the guard, or is missing while there are zero or several ways:
            `next: 2 ways on from 'paid', choose one: e2 (handle yes, label "yes") -> stock,
            e3 (handle no, label "no") -> cancelled`.]],
        },
        {
          name = "Walker:back", kind = "method",
          summary = "Goes back along the last step taken.",
          returns = {
            { "Node", "the node gone back to", name = "node" },
            { "Edge", "the edge gone back along", name = "edge" },
          },
          result = "the node gone back to and the edge",
          text = [[
            Raises at the start (`back: no step to go back (the walker is at its start)`):
            check `canGoBack` first.]],
        },
        {
          name = "Walker:reset", kind = "method",
          summary = "Goes back to the start node and forgets the steps.",
          returns = { { "Node", "the start node" } },
        },
        {
          name = "Walker:history", kind = "method",
          summary = "The nodes visited since the start and the edges taken.",
          returns = {
            { "Node[]", "the start node first, the current node last", name = "nodes" },
            { "Edge[]", "one fewer than the nodes", name = "edges" },
          },
          result = "nodes and edges",
        },
      },
    },

    ---------------------------------------------------------------------------------------
    {
      id = "observers",
      title = "Observers",
      text = [[
        `flow.observe` watches every store of the Lua state, whoever made it: for logging
        and analytics. Observers are called after the store's own callbacks, once per call
        that changed something, with the node and edge batches together. A store records
        change events only while someone listens, so changes made before the first
        observer (or after the last one stopped) are not seen.]],
      entries = {
        {
          name = "flow.observe", kind = "function",
          summary = "Calls fn(storeName, changes, store) for every change batch of every store.",
          params = {
            { "fn", "fun(storeName: string, changes: ChangeBatch, store: Store)", "the observer" },
          },
          returns = { { "Observer", "stops the observing" } },
          text = [[
            `storeName` is `store.name`. An error raised by an observer is reported on the
            error sink (stderr in flowrepl) as `error in observer: ...` with a traceback;
            the store's call does not raise, its change stands, and the observer stays.
            Dropping the Observer does not stop it: call `stop`, or use a to-be-closed
            variable.]],
          example = [[
            local log = flow.observe(function(name, changes)
              print(name, #changes.nodes .. " node changes", #changes.edges .. " edge changes")
            end)
            -- ...
            log:stop()
            do
              local o <close> = flow.observe(print)  -- observes until the block ends
            end]],
        },
        {
          name = "ChangeBatch", kind = "type",
          summary = "What one call changed in a store, as observers get it.",
          fields = {
            { "nodes", "NodeChange[]", "the node batch (possibly empty)" },
            { "edges", "EdgeChange[]", "the edge batch (possibly empty)" },
          },
        },
        {
          name = "Observer", kind = "type",
          summary = "An observation made by `flow.observe`.",
          text = [[
            `tostring` gives `Observer (active)` or `Observer (stopped)`. Closing it
            (`observer:close()` or a `<close>` variable) stops it; a stopped observer holds
            nothing, so its fields stay readable (`isActive` is false).]],
        },
        {
          name = "Observer:close", kind = "method",
          summary = "Stops the observing (as `stop`, and as a `<close>` variable does).",
        },
        {
          name = "Observer.isActive", kind = "field", type = "boolean",
          summary = "Whether the observer is still called.",
        },
        {
          name = "Observer:stop", kind = "method",
          summary = "Stops the observing.",
          returns = { { "boolean", "false when it had stopped already" } },
        },
        {
          name = "Store.name", kind = "field", type = "string",
          summary = "The store's name, as observers get it; assignable.",
          text = [[
            Stores are named `store#1`, `store#2`, ... in the order the Lua state made them
            (`flow.newStore`, `flow.open`, `flow.decode`). flowrepl names its global `store`
            "store" (and the store `open(path)` makes the global). Names need not be
            unique.]],
        },
      },
    },

    ---------------------------------------------------------------------------------------
    {
      id = "workspaces",
      title = "Journals and workspaces",
      text = [[
        Every committed change batch (one public call, one transaction, one undo or redo)
        can be kept as a value: a table `{name = "Move", actions = {...}}` whose actions
        say what changed, forwards: `addNode` (with the node and its place `seq`),
        `updateNode`, `moveNode`, `removeNode`, the same for edges, `setClasses` and
        `load`. A workspace is an SQLite file of named diagrams; a store opened from one
        writes each batch to it as the call returns, so a killed process loses nothing
        that had returned. See docs/workspaces.md.]],
      entries = {
        {
          name = "Store.journaling", kind = "field", type = "boolean",
          summary = "Whether the store keeps a journal of its change batches; assignable.",
          text = [[
            Setting it to true starts an empty journal, false drops it. A store opened
            from a workspace always keeps one (from the moment it was opened), and so does
            flowrepl's global `store` (from the start of the session, and the store `open`
            makes). While a journal is kept every call takes the store's journaled path,
            which is a little slower than the quiet one.]],
        },
        {
          name = "Store:journal", kind = "method",
          summary = "The change batches since the journal started, as tables.",
          returns = { { "table[]", "`{name =, actions = { {op =, ...}, ... }}` per batch" } },
          text = [[
            Raises when the store keeps no journal. Nodes and edges in the actions have the
            fields of a document (`store:export`).]],
          example = [[
            store.journaling = true
            store:addNode{id = "a", x = 0, y = 0}
            store:moveNode("a", 10, 20)
            for _, b in ipairs(store:journal()) do print(b.name, b.actions[1].op) end
            --> Add addNode
            --> Move moveNode]],
        },
        {
          name = "Store:replay", kind = "method",
          summary = "Applies change batches, all of them or none (one undo step).",
          params = { { "batches", "table[]", "as `store:journal` returns them" } },
          text = [[
            An action that does not fit the store (an unknown id, an id taken, an edge left
            without its node) raises naming the batch and the action, and nothing changes.
            A journal replayed on an empty store gives the same document.]],
          example = [[
            local copy = flow.newStore()
            copy:replay(store:journal())]],
        },
        {
          name = "Store:journalScript", kind = "method",
          summary = "The journal as a Lua script that replays it on `store`.",
          returns = { { "string", "a chunk calling `store:replay{...}`" } },
        },
        {
          name = "flow.workspace", kind = "function",
          summary = "Opens (or creates) a workspace file, or a shared workspace in PostgreSQL.",
          params = {
            { "path", "string", "the SQLite file, or a `postgresql://user@host:port/db` URL" },
            { "options?", "table", "`readOnly` (boolean), `maxPages` (a size limit, for testing a full disk); files only" },
          },
          returns = {
            { "Workspace?", "the workspace", name = "workspace" },
            { "string?", "why it cannot be opened", name = "message" },
          },
          result = "Workspace, or nil and a message",
          text = [[
            A file that is not a workspace, one written by a newer FlowScript, or one that
            cannot be opened gives `nil, message`. Another process may read a workspace
            while a store writes it (WAL mode). A `postgresql://` (or `postgres://`) URL
            opens a workspace in that database instead, with the same methods: any number
            of sessions may edit one diagram, each seeing the others' batches at
            `ws:sync()` (docs/collaboration.md). Its password never appears in `path`,
            messages or errors.]],
          example = [[
            local ws = assert(flow.workspace("diagrams.flowspace"))
            local s = ws:create("plan")
            s:addNode{id = "a", x = 0, y = 0}   -- on disk when the call returns]],
        },
        {
          name = "Workspace", kind = "type",
          summary = "An open workspace file, made by `flow.workspace`.",
          text = [[
            `tostring` gives `Workspace <path>` (and ` (closed)` once closed). Stores it
            returns keep working after the Workspace is dropped only until it is
            collected: keep it (flowrepl's `--workspace` keeps it as the global
            `workspace`). `ws:close()` or a `<close>` variable closes the file; after that
            its calls raise `attempt to use a closed Workspace` (`ws.path` stays readable).

            The workspace code is a module of its own, `flow.workspace` (Foundation and
            SQLite): `require "flow"` does not load it; the first `flow.workspace` call
            does, as `require "flow.workspace"` would.]],
        },
        {
          name = "Workspace:create", kind = "method",
          summary = "Creates a diagram and returns a store bound to it.",
          params = { { "name", "string", "a name not in use" } },
          returns = { { "Store" } },
          text = [[
            A bound store writes each change batch to the workspace in one transaction as
            the call returns. When a write fails (locked, read-only, full disk) the call
            raises and the store is as it was before the call.]],
        },
        {
          name = "Workspace:open", kind = "method",
          summary = "Opens a diagram: a bound store, or a read-only one at a version.",
          params = {
            { "name", "string", "a diagram of the workspace" },
            { "options?", "table", "`at`: a version (0 = empty, n = after batch n)" },
          },
          returns = { { "Store" } },
          text = [[
            With `at` the store holds the diagram as it was after that batch and refuses
            changes (`ws:fork` makes a diagram to change). A diagram is open in one store
            of a process at a time. The history of the opened store starts empty.]],
        },
        {
          name = "Workspace:fork", kind = "method",
          summary = "Copies a diagram (at a version) under a new name; returns it bound.",
          params = {
            { "name", "string", "the diagram to copy" },
            { "newName", "string", "the new diagram's name" },
            { "options?", "table", "`at`: the version to copy (default: the newest)" },
          },
          returns = { { "Store" } },
        },
        {
          name = "Workspace:list", kind = "method",
          summary = "The diagrams' names, sorted.",
          returns = { { "string[]" } },
        },
        {
          name = "Workspace:rename", kind = "method",
          summary = "Renames a diagram.",
          params = { { "name", "string" }, { "newName", "string" } },
        },
        {
          name = "Workspace:delete", kind = "method",
          summary = "Deletes a diagram with its nodes, edges and history.",
          params = { { "name", "string", "a diagram of the workspace" } },
          text = [[
            A diagram open in a store of this workspace is deleted too, and the store is
            closed: its calls then raise `attempt to use a closed Store`.]],
        },
        {
          name = "Workspace:versions", kind = "method",
          summary = "A diagram's history: one entry per change batch.",
          params = { { "name", "string" } },
          returns = { { "table[]", "`{version =, name =, summary =, time =}`, oldest first" } },
        },
        {
          name = "Workspace:reload", kind = "method",
          summary = "Loads a diagram afresh into the store bound to it.",
          params = { { "name", "string", "a diagram open in a store of this workspace" } },
          text = [[
            When another process (or another `flow.workspace` on the same file) wrote the
            diagram, the bound store's next change is written after their batches when it
            still applies; when it conflicts with one of them it raises naming it
            (`moveNode: the change conflicts with diagram 'd' as the file holds it: batch 8
            ('Move') of another writer also changed node 'a'; ...`) and leaves the store
            and the file as they were. `ws:reload(name)` makes the same store hold what the
            file holds now; its history starts empty, and its changes are written again
            (`ws:sync()` does the same by applying the others' batches).]],
          example = [[
            local ok, e = pcall(s.addNode, s, {id = "x"})
            if not ok then ws:reload("plan"); s:addNode{id = "x"} end]],
        },
        {
          name = "Workspace:sync", kind = "method",
          summary = "Applies what other sessions committed to the bound stores.",
          returns = { { "integer", "how many batches of others it applied" } },
          text = [[
            For a PostgreSQL workspace: each bound store takes the batches other sessions
            committed since it last looked, in the database's order, as the same change
            events (its undo history starts afresh); changes kept while the database was
            out of reach are written (those that conflict are reported and left out). A
            batch made against an older version is rebased when it still applies, else
            refused naming the conflict: sync and make the change again. flowrepl syncs
            before each prompt and each line it runs, and while it waits for a line (at a
            terminal or from a pipe) as soon as another session commits. For a workspace
            file the same, with what other processes (or other `flow.workspace`s on the
            file) wrote: a script calls it when it wants to see them.]],
          example = [[
            local ws = assert(flow.workspace("postgresql://me@db.example/diagrams"))
            local s = ws:open("plan")
            ws:sync()   -- what colleagues changed since]],
        },
        {
          name = "Workspace:close", kind = "method",
          summary = "Closes the file; stores bound to it refuse further changes.",
        },
        {
          name = "Workspace.path", kind = "field", type = "string",
          summary = "The workspace's file, or its database URL without the password.",
        },
      },
    },

    ---------------------------------------------------------------------------------------
    {
      id = "repl",
      title = "flowrepl",
      text = [[
        Every store created in a flowrepl session reports its change events, one line per
        change, starting with the kind of change and the id. Expression results print as in
        the stock `lua` REPL, tables with sorted keys. Besides `flow`, flowrepl defines the
        globals below.

        `store`, `save` and `open` are shortcuts of flowrepl, not part of the contract: the
        stock `lua5.4` with `require "flow"` does not define them.]],
      entries = {
        {
          name = "help", kind = "function", repl = true,
          summary = "Prints the reference entry for a name or a value, or the list of topics.",
          params = { { "x?", "any" } },
          text = [[
            help() lists the topics. help("name") prints the entry for a name ("flow.type",
            "Store:addNode", or just "addNode"). help(x) prints the entry for a function,
            module or object (a Store prints the Store entry).]],
        },
        {
          name = "store", kind = "value", type = "Store", repl = true,
          summary = "The session's current store, for quick experiments.",
          text = [[
            A fresh store named "store" when the session starts (scripts that flowrepl runs
            have it too); `open(path)` replaces it with the opened document. It is an
            ordinary global: assigning another store to it makes `save` save that one.]],
        },
        {
          name = "save", kind = "function", repl = true,
          summary = "Saves the current store: `store:save(path, opts)`.",
          params = {
            { "path", "string", "ends in .json (document), .svg (drawing) or .png (raster)" },
            { "opts?", "SvgOptions", "drawing options, as for `store:svg`" },
          },
          returns = {
            { "true?", "true on success", name = "ok" },
            { "string?", "the error message", name = "message" },
          },
          result = "true, or nil and a message",
          text = [[
            `Store:save` on the global `store`: an unknown extension raises, a failure to
            write returns `nil, message`.]],
          example = [[
            save("diagram.svg")
            save("diagram.json")]],
        },
        {
          name = "open", kind = "function", repl = true,
          summary = "Opens a document and makes it the current `store`.",
          params = { { "path", "string", "a .json document, as `store:export` writes it" } },
          returns = {
            { "Store?", "the new current store", name = "store" },
            { "string[]|string", "the load warnings, or why it failed", name = "warnings" },
          },
          result = "Store and warnings, or nil and a message",
          text = [[
            Reads the document with `flow.open(path)`. On success the new store is named
            "store", becomes the global `store` and is returned with the load warnings; on
            failure `store` stays as it was.]],
          example = [[
            open("diagram.json")
            store.nodeCount]],
        },
        {
          name = "preview", kind = "function", repl = true,
          summary = "Shows the session's stores live in a browser page, both ways.",
          params = { { "s?", "Store", "the store to show", default = "the store changed last" } },
          text = [[
            Starts the preview server on first use (at `--serve`'s address, else
            127.0.0.1:8080) and prints the page's address. The page lists the live stores
            (by the global that holds them, else `store#n`) and shows the one changed last,
            or the one picked in its list; with a store, the address printed opens a page on
            that store (`?view=2`, ...) and the store is kept alive for the pages. The page
            follows every change (moved nodes glide), and clicks and node drags in it act on
            the store like calls at the prompt (their change events print; a drag is one
            undo step). See docs/preview.md.]],
          example = [[
            preview()        -- preview: http://127.0.0.1:8080/
            preview(other)   -- preview: http://127.0.0.1:8080/?view=2]],
        },
      },
    },
  },
}
