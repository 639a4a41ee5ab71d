import TestSupport
import Testing

@testable import FlowCore

typealias JSONDocument = FlowDocument<JSONValue>

/// The error description of decoding `text`, or nil when it decodes.
func decodeError<Data: FlowNodeData>(
    _ text: String, as: Data.Type = JSONValue.self, operation: String = "load"
) -> String? {
    do throws(FlowError) {
        _ = try FlowDocument<Data>.decode(text, operation: operation)
        return nil
    } catch {
        #expect(error.code == .invalidDocument, "\(error)")
        return error.description
    }
}

/// A document text with the given node and edge entries and a default viewport.
func documentText(nodes: [String] = [], edges: [String] = [], extra: String = "") -> String {
    #"{"nodes": [\#(nodes.joined(separator: ","))], "edges": [\#(edges.joined(separator: ","))], "viewport": {"offset": [0, 0], "zoom": 1}\#(extra)}"#
}

extension SplitMix64 {
    mutating func id() -> String {
        pick(["a", "b", "n1", "n2", "g", "é", "x\"y", "😀", "sp ace", ""])
    }

    mutating func hitArea() -> HandleHitArea? {
        switch below(5) {
        case 0: return .disabled
        case 1: return .point(radius: double())
        case 2: return .node
        case 3: return .nodeBorder(width: double())
        default: return nil
        }
    }

    mutating func document() -> JSONDocument {
        var nodes: [FlowNode<JSONValue>] = []
        for _ in 0..<below(6) {
            var handles = HandleDeclaration.defaults
            if chance(50) {
                handles = (0..<below(4)).map { _ in
                    HandleDeclaration(
                        id: id(), type: pick(HandleType.allCases),
                        position: pick(HandlePosition.allCases),
                        connectionStartArea: hitArea(), connectionTargetArea: hitArea())
                }
            }
            nodes.append(
                FlowNode(
                    id: string(), position: Point(double(), double()),
                    size: Size(double(), double()),
                    data: jsonValue(), parentID: chance(30) ? id() : nil,
                    phase: chance(50) ? .normal : .draft(pick(DraftPresentationState.allCases)),
                    persistence: pick(NodePersistence.allCases), isDraggable: chance(50),
                    acceptsChildren: chance(50), zIndex: below(2001) - 1000, handles: handles))
        }
        var edges: [FlowEdge] = []
        for _ in 0..<below(6) {
            edges.append(
                FlowEdge(
                    id: string(), sourceNodeID: id(), sourceHandleID: chance(50) ? id() : nil,
                    targetNodeID: id(), targetHandleID: chance(50) ? id() : nil,
                    parentID: chance(30) ? id() : nil, pathType: pick(EdgePathType.allCases),
                    label: chance(50) ? string() : nil,
                    points: chance(40) ? (0..<(1 + below(3))).map { _ in Point(double(), double()) } : []))
        }
        return JSONDocument(
            nodes: nodes, edges: edges,
            viewport: Viewport(offset: Point(double(), double()), zoom: double()))
    }
}

@Suite struct DocumentCodecTests {
    /// store-semantics §1.6, written out in full (with the flags the old format wrote).
    static let specExample = """
        {"edges":[{"id":"e1","isSelected":true,"label":"L","pathType":"smoothStep",
                   "sourceHandleID":"s","sourceNodeID":"n1","targetNodeID":"n2"}],
         "nodes":[{"acceptsChildren":true,"data":"A",
                   "handles":[{"connectionStartArea":{"nodeBorder":{"width":6}},
                               "connectionTargetArea":{"disabled":{}},"id":"s",
                               "position":"center","type":"source"}],
                   "id":"n1","isDraggable":false,"isSelected":true,"parentID":"g",
                   "persistence":"transient","phase":{"draft":{"_0":"valid"}},
                   "position":[10.5,20],"size":[150,60],"zIndex":3}],
         "viewport":{"offset":[-5,7.25],"zoom":1.5}}
        """

    @Test func specExampleDecodes() throws {
        let doc = try FlowDocument<String>.decode(Self.specExample)
        #expect(doc.nodes.count == 1)
        #expect(doc.edges.count == 1)
        let n = try #require(doc.nodes.first)
        #expect(n.id == "n1")
        #expect(n.data == "A")
        #expect(n.acceptsChildren)
        #expect(!n.isDraggable)
        #expect(!n.isSelected)
        #expect(n.parentID == "g")
        #expect(n.persistence == .transient)
        #expect(n.phase == .draft(.valid))
        #expect(n.position == Point(10.5, 20))
        #expect(n.size == Size(150, 60))
        #expect(n.zIndex == 3)
        #expect(
            n.handles == [
                HandleDeclaration(
                    id: "s", type: .source, position: .center,
                    connectionStartArea: .nodeBorder(width: 6), connectionTargetArea: .disabled)
            ])
        let e = try #require(doc.edges.first)
        #expect(
            e
                == FlowEdge(
                    id: "e1", sourceNodeID: "n1", sourceHandleID: "s", targetNodeID: "n2",
                    pathType: .smoothStep, label: "L"))
        #expect(!e.isSelected)
        #expect(doc.viewport == Viewport(offset: Point(-5, 7.25), zoom: 1.5))
    }

    @Test func minimalNodeAndEdgeTakeDefaults() throws {
        let text = documentText(
            nodes: [#"{"id":"a","position":[1,2],"size":[3,4],"data":"x"}"#],
            edges: [#"{"id":"e","sourceNodeID":"a","targetNodeID":"b"}"#])
        let doc = try FlowDocument<String>.decode(text)
        #expect(
            doc.nodes == [FlowNode(id: "a", position: Point(1, 2), size: Size(3, 4), data: "x")])
        let n = try #require(doc.nodes.first)
        #expect(n.phase == .normal)
        #expect(n.persistence == .persistent)
        #expect(
            n.isDraggable && !n.acceptsChildren && !n.isSelected && !n.isHovered && !n.isDropTarget)
        #expect(n.zIndex == 0)
        #expect(n.parentID == nil)
        #expect(n.handles == HandleDeclaration.defaults)
        #expect(doc.edges == [FlowEdge(id: "e", sourceNodeID: "a", targetNodeID: "b")])
        #expect(doc.edges.first?.pathType == .bezier)
        #expect(doc.viewport == Viewport())
    }

    @Test func nullMeansDefault() throws {
        let text = documentText(
            nodes: [
                #"{"id":"a","position":[1,2],"size":[3,4],"data":null,"parentID":null,"phase":null,"persistence":null,"isDraggable":null,"acceptsChildren":null,"zIndex":null,"handles":null}"#
            ],
            edges: [
                #"{"id":"e","sourceNodeID":"a","targetNodeID":"b","sourceHandleID":null,"targetHandleID":null,"parentID":null,"pathType":null,"label":null}"#
            ],
            extra: #","version":null"#)
        let doc = try JSONDocument.decode(text)
        #expect(
            doc.nodes == [FlowNode(id: "a", position: Point(1, 2), size: Size(3, 4), data: .null)])
        #expect(doc.edges == [FlowEdge(id: "e", sourceNodeID: "a", targetNodeID: "b")])
    }

    @Test func missingDataReadsAsNull() throws {
        let text = documentText(nodes: [#"{"id":"a","position":[1,2],"size":[3,4]}"#])
        #expect(try FlowDocument<String?>.decode(text).nodes.first?.data == .some(nil))
        #expect(try JSONDocument.decode(text).nodes.first?.data == .null)
        #expect(
            decodeError(text, as: String.self) == "load: nodes[0].data: node data must be a string")
        let number = documentText(nodes: [#"{"id":"a","position":[1,2],"size":[3,4],"data":"x"}"#])
        #expect(
            decodeError(number, as: Double.self)
                == "load: nodes[0].data: node data must be a number")
    }

    @Test func unknownKeysAndFlagsAreIgnored() throws {
        let text = documentText(
            nodes: [
                #"{"id":"a","position":[1,2],"size":[3,4],"data":1,"isSelected":"whatever","isHovered":true,"isDropTarget":7,"color":"red"}"#
            ],
            edges: [
                #"{"id":"e","sourceNodeID":"a","targetNodeID":"b","isSelected":true,"isDropTarget":true,"animated":true}"#
            ],
            extra: #","title":"hello","version":1"#)
        let doc = try JSONDocument.decode(text)
        #expect(
            doc.nodes == [
                FlowNode(id: "a", position: Point(1, 2), size: Size(3, 4), data: .number(1))
            ])
        #expect(doc.edges == [FlowEdge(id: "e", sourceNodeID: "a", targetNodeID: "b")])
    }

    /// decode returns what the text says: no repairs.
    @Test func decodeDoesNotRepair() throws {
        let text = documentText(
            nodes: [
                #"{"id":"a","position":[0,0],"size":[1,1],"parentID":"b"}"#,
                #"{"id":"b","position":[0,0],"size":[1,1],"parentID":"a"}"#,
                #"{"id":"a","position":[5,5],"size":[1,1],"parentID":"missing"}"#,
            ],
            edges: [
                #"{"id":"e","sourceNodeID":"a","targetNodeID":"nowhere","sourceHandleID":"undeclared"}"#,
                #"{"id":"e","sourceNodeID":"a","targetNodeID":"a"}"#,
            ])
        let doc = try JSONDocument.decode(text)
        #expect(doc.nodes.map(\.id) == ["a", "b", "a"])
        #expect(doc.nodes.map(\.parentID) == ["b", "a", "missing"])
        #expect(doc.edges.map(\.targetNodeID) == ["nowhere", "a"])
        #expect(doc.edges.first?.sourceHandleID == "undeclared")
    }

    @Test func version() throws {
        #expect(decodeError(documentText()) == nil)
        #expect(decodeError(documentText(extra: #","version":1"#)) == nil)
        #expect(decodeError(documentText(extra: #","version":1.0"#)) == nil)
        #expect(
            decodeError(documentText(extra: #","version":2"#))
                == "load: version: unsupported document version 2 (expected 1)")
        #expect(
            decodeError(documentText(extra: #","version":"1""#))
                == #"load: version: unsupported document version "1" (expected 1)"#)
    }

    @Test func invalidJSONIsReportedUnderTheOperation() {
        #expect(
            decodeError("{\"nodes\": [", operation: "open")
                == "open: invalid JSON at line 1, column 12: unexpected end of input, expected a value"
        )
        #expect(
            decodeError("[] x") == "load: invalid JSON at line 1, column 4: expected end of input")
    }

    static let node = #""id":"a","position":[1,2],"size":[3,4]"#

    static let shapeErrors: [(String, String)] = [
        ("[]", "load: expected an object at the top level"),
        ("null", "load: expected an object at the top level"),
        (
            #"{"edges":[],"viewport":{"offset":[0,0],"zoom":1}}"#,
            "load: nodes: missing (expected an array)"
        ),
        (
            #"{"nodes":{},"edges":[],"viewport":{"offset":[0,0],"zoom":1}}"#,
            "load: nodes: expected an array"
        ),
        (
            #"{"nodes":[],"viewport":{"offset":[0,0],"zoom":1}}"#,
            "load: edges: missing (expected an array)"
        ),
        (
            #"{"nodes":[],"edges":null,"viewport":{"offset":[0,0],"zoom":1}}"#,
            "load: edges: expected an array"
        ),
        (#"{"nodes":[],"edges":[]}"#, "load: viewport: missing (expected an object)"),
        (#"{"nodes":[],"edges":[],"viewport":[0,0,1]}"#, "load: viewport: expected an object"),
        (
            #"{"nodes":[],"edges":[],"viewport":{"zoom":1}}"#,
            "load: viewport.offset: missing (expected an array of 2 numbers)"
        ),
        (
            #"{"nodes":[],"edges":[],"viewport":{"offset":[0],"zoom":1}}"#,
            "load: viewport.offset: expected an array of 2 numbers"
        ),
        (
            #"{"nodes":[],"edges":[],"viewport":{"offset":[0,0,0],"zoom":1}}"#,
            "load: viewport.offset: expected an array of 2 numbers"
        ),
        (
            #"{"nodes":[],"edges":[],"viewport":{"offset":{"x":0,"y":0},"zoom":1}}"#,
            "load: viewport.offset: expected an array of 2 numbers"
        ),
        (
            #"{"nodes":[],"edges":[],"viewport":{"offset":[0,0]}}"#,
            "load: viewport.zoom: missing (expected a number)"
        ),
        (
            #"{"nodes":[],"edges":[],"viewport":{"offset":[0,0],"zoom":"1"}}"#,
            "load: viewport.zoom: expected a number"
        ),
        (documentText(nodes: ["1"]), "load: nodes[0]: expected an object"),
        (
            documentText(nodes: [#"{"position":[1,2],"size":[3,4]}"#]),
            "load: nodes[0].id: missing (expected a string)"
        ),
        (
            documentText(nodes: ["{\(node)}", #"{"id":7,"position":[1,2],"size":[3,4]}"#]),
            "load: nodes[1].id: expected a string"
        ),
        (
            documentText(nodes: [#"{"id":"a","size":[3,4]}"#]),
            "load: nodes[0].position: missing (expected an array of 2 numbers)"
        ),
        (
            documentText(nodes: [
                "{\(node)}", "{\(node)}", "{\(node)}",
                #"{"id":"a","position":[1,"2"],"size":[3,4]}"#,
            ]),
            "load: nodes[3].position: expected an array of 2 numbers"
        ),
        (
            documentText(nodes: [#"{"id":"a","position":[1,2]}"#]),
            "load: nodes[0].size: missing (expected an array of 2 numbers)"
        ),
        (
            documentText(nodes: [#"{"id":"a","position":[1,2],"size":[3]}"#]),
            "load: nodes[0].size: expected an array of 2 numbers"
        ),
        (
            documentText(nodes: [#"{\#(node),"parentID":1}"#]),
            "load: nodes[0].parentID: expected a string or null"
        ),
        (
            documentText(nodes: [#"{\#(node),"isDraggable":"yes"}"#]),
            "load: nodes[0].isDraggable: expected true or false"
        ),
        (
            documentText(nodes: [#"{\#(node),"acceptsChildren":1}"#]),
            "load: nodes[0].acceptsChildren: expected true or false"
        ),
        (
            documentText(nodes: [#"{\#(node),"zIndex":1.5}"#]),
            "load: nodes[0].zIndex: expected an integer between -2^53 and 2^53"
        ),
        (
            documentText(nodes: [#"{\#(node),"zIndex":"1"}"#]),
            "load: nodes[0].zIndex: expected an integer between -2^53 and 2^53"
        ),
        (
            documentText(nodes: [#"{\#(node),"zIndex":1e300}"#]),
            "load: nodes[0].zIndex: expected an integer between -2^53 and 2^53"
        ),
        (
            documentText(nodes: [#"{\#(node),"persistence":"forever"}"#]),
            "load: nodes[0].persistence: invalid persistence 'forever' (expected one of: persistent, transient)"
        ),
        (
            documentText(nodes: [#"{\#(node),"persistence":true}"#]),
            "load: nodes[0].persistence: expected a string, one of: persistent, transient"
        ),
        (
            documentText(nodes: [#"{\#(node),"phase":"normal"}"#]),
            "load: nodes[0].phase: expected an object with one key, one of: normal, draft"
        ),
        (
            documentText(nodes: [#"{\#(node),"phase":{}}"#]),
            "load: nodes[0].phase: expected an object with one key, one of: normal, draft"
        ),
        (
            documentText(nodes: [#"{\#(node),"phase":{"normal":{},"draft":{"_0":"valid"}}}"#]),
            "load: nodes[0].phase: expected an object with one key, one of: normal, draft"
        ),
        (
            documentText(nodes: [#"{\#(node),"phase":{"final":{}}}"#]),
            "load: nodes[0].phase: invalid phase 'final' (expected one of: normal, draft)"
        ),
        (
            documentText(nodes: [#"{\#(node),"phase":{"normal":true}}"#]),
            "load: nodes[0].phase.normal: expected an object"
        ),
        (
            documentText(nodes: [#"{\#(node),"phase":{"draft":{}}}"#]),
            "load: nodes[0].phase.draft._0: missing (expected one of: neutral, valid, invalid)"
        ),
        (
            documentText(nodes: [#"{\#(node),"phase":{"draft":{"_0":"ok"}}}"#]),
            "load: nodes[0].phase.draft._0: invalid draft state 'ok' (expected one of: neutral, valid, invalid)"
        ),
        (
            documentText(nodes: [#"{\#(node),"handles":{}}"#]),
            "load: nodes[0].handles: expected an array"
        ),
        (
            documentText(nodes: [#"{\#(node),"handles":["h"]}"#]),
            "load: nodes[0].handles[0]: expected an object"
        ),
        (
            documentText(nodes: [#"{\#(node),"handles":[{"type":"source","position":"top"}]}"#]),
            "load: nodes[0].handles[0].id: missing (expected a string)"
        ),
        (
            documentText(nodes: [#"{\#(node),"handles":[{"id":"h","position":"top"}]}"#]),
            "load: nodes[0].handles[0].type: missing (expected one of: source, target)"
        ),
        (
            documentText(nodes: [
                #"{\#(node),"handles":[{"id":"h","type":"input","position":"top"}]}"#
            ]),
            "load: nodes[0].handles[0].type: invalid handle type 'input' (expected one of: source, target)"
        ),
        (
            documentText(nodes: [#"{\#(node),"handles":[{"id":"h","type":"source"}]}"#]),
            "load: nodes[0].handles[0].position: missing (expected one of: center, top, bottom, left, right)"
        ),
        (
            documentText(nodes: [
                #"{\#(node),"handles":[{"id":"h","type":"source","position":"up"}]}"#
            ]),
            "load: nodes[0].handles[0].position: invalid handle position 'up' (expected one of: center, top, bottom, left, right)"
        ),
        (
            documentText(nodes: [
                #"{\#(node),"handles":[{"id":"h","type":"source","position":"top","connectionStartArea":"node"}]}"#
            ]),
            "load: nodes[0].handles[0].connectionStartArea: expected an object with one key, one of: disabled, point, node, nodeBorder"
        ),
        (
            documentText(nodes: [
                #"{\#(node),"handles":[{"id":"h","type":"source","position":"top","connectionTargetArea":{"circle":{}}}]}"#
            ]),
            "load: nodes[0].handles[0].connectionTargetArea: invalid hit area 'circle' (expected one of: disabled, point, node, nodeBorder)"
        ),
        (
            documentText(nodes: [
                #"{\#(node),"handles":[{"id":"h","type":"source","position":"top","connectionStartArea":{"point":{}}}]}"#
            ]),
            "load: nodes[0].handles[0].connectionStartArea.point.radius: missing (expected a number)"
        ),
        (
            documentText(nodes: [
                #"{\#(node),"handles":[{"id":"h","type":"source","position":"top","connectionStartArea":{"nodeBorder":{"width":"6"}}}]}"#
            ]),
            "load: nodes[0].handles[0].connectionStartArea.nodeBorder.width: expected a number"
        ),
        (
            documentText(nodes: [
                #"{\#(node),"handles":[{"id":"h","type":"source","position":"top","connectionStartArea":{"node":null}}]}"#
            ]),
            "load: nodes[0].handles[0].connectionStartArea.node: expected an object"
        ),
        (documentText(edges: ["[]"]), "load: edges[0]: expected an object"),
        (
            documentText(edges: [#"{"sourceNodeID":"a","targetNodeID":"b"}"#]),
            "load: edges[0].id: missing (expected a string)"
        ),
        (
            documentText(edges: [#"{"id":"e","targetNodeID":"b"}"#]),
            "load: edges[0].sourceNodeID: missing (expected a string)"
        ),
        (
            documentText(edges: [#"{"id":"e","sourceNodeID":"a"}"#]),
            "load: edges[0].targetNodeID: missing (expected a string)"
        ),
        (
            documentText(edges: [#"{"id":"e","sourceNodeID":"a","targetNodeID":false}"#]),
            "load: edges[0].targetNodeID: expected a string"
        ),
        (
            documentText(edges: [
                #"{"id":"e","sourceNodeID":"a","targetNodeID":"b","sourceHandleID":1}"#
            ]),
            "load: edges[0].sourceHandleID: expected a string or null"
        ),
        (
            documentText(edges: [
                #"{"id":"e","sourceNodeID":"a","targetNodeID":"b","targetHandleID":[]}"#
            ]),
            "load: edges[0].targetHandleID: expected a string or null"
        ),
        (
            documentText(edges: [#"{"id":"e","sourceNodeID":"a","targetNodeID":"b","parentID":{}}"#]
            ),
            "load: edges[0].parentID: expected a string or null"
        ),
        (
            documentText(edges: [#"{"id":"e","sourceNodeID":"a","targetNodeID":"b","label":2}"#]),
            "load: edges[0].label: expected a string or null"
        ),
        (
            documentText(edges: [
                #"{"id":"e","sourceNodeID":"a","targetNodeID":"b","pathType":"curvy"}"#
            ]),
            "load: edges[0].pathType: invalid path type 'curvy' (expected one of: bezier, straight, smoothStep, simpleBezier, orthogonal)"
        ),
        (
            documentText(edges: [#"{"id":"e","sourceNodeID":"a","targetNodeID":"b","points":{"x":1}}"#]),
            "load: edges[0].points: expected an array"
        ),
        (
            documentText(edges: [
                #"{"id":"e","sourceNodeID":"a","targetNodeID":"b","points":[[1,2],[3]]}"#
            ]),
            "load: edges[0].points[1]: expected an array of 2 numbers"
        ),
        (
            documentText(edges: [
                #"{"id":"e","sourceNodeID":"a","targetNodeID":"b","points":[{"x":1,"y":2}]}"#
            ]),
            "load: edges[0].points[0]: expected an array of 2 numbers"
        ),
    ]

    @Test(arguments: shapeErrors)
    func shapeError(text: String, message: String) {
        #expect(decodeError(text) == message)
    }

    static var smallDocument: JSONDocument {
        JSONDocument(
            nodes: [
                FlowNode(
                    id: "a", position: Point(10.5, -20), size: Size(150, 60),
                    data: .object(
                        JSONObject([
                            ("text", .string("Hi")), ("n", .number(1)),
                            ("tags", .array([.string("x"), .string("y")])),
                        ])),
                    parentID: "g", phase: .draft(.valid), zIndex: 2,
                    handles: [
                        HandleDeclaration(
                            id: "in", type: .target, position: .left,
                            connectionTargetArea: .point(radius: 12)
                        )
                    ]),
                FlowNode(
                    id: "g", position: Point(0, 0), size: Size(400, 300), data: .null,
                    acceptsChildren: true),
            ],
            edges: [
                FlowEdge(
                    id: "e1", sourceNodeID: "g", targetNodeID: "a", targetHandleID: "in",
                    label: "yes")
            ],
            viewport: Viewport(offset: Point(-5, 7.25), zoom: 1.5))
    }

    @Test func prettyLayout() throws {
        let expected = """
            {
              "edges": [
                {
                  "id": "e1",
                  "label": "yes",
                  "pathType": "bezier",
                  "sourceNodeID": "g",
                  "targetHandleID": "in",
                  "targetNodeID": "a"
                }
              ],
              "nodes": [
                {
                  "acceptsChildren": false,
                  "autoSize": false,
                  "data": {
                    "text": "Hi",
                    "n": 1,
                    "tags": ["x", "y"]
                  },
                  "handles": [
                    {
                      "connectionTargetArea": {
                        "point": {
                          "radius": 12
                        }
                      },
                      "id": "in",
                      "position": "left",
                      "type": "target"
                    }
                  ],
                  "id": "a",
                  "isDraggable": true,
                  "parentID": "g",
                  "persistence": "persistent",
                  "phase": {
                    "draft": {
                      "_0": "valid"
                    }
                  },
                  "position": [10.5, -20],
                  "size": [150, 60],
                  "zIndex": 2
                },
                {
                  "acceptsChildren": true,
                  "data": null,
                  "handles": [
                    {
                      "id": "target",
                      "position": "top",
                      "type": "target"
                    },
                    {
                      "id": "source",
                      "position": "bottom",
                      "type": "source"
                    }
                  ],
                  "id": "g",
                  "isDraggable": true,
                  "persistence": "persistent",
                  "phase": {
                    "normal": {}
                  },
                  "position": [0, 0],
                  "size": [400, 300],
                  "zIndex": 0
                }
              ],
              "version": 1,
              "viewport": {
                "offset": [-5, 7.25],
                "zoom": 1.5
              }
            }

            """
        #expect(try Self.smallDocument.encoded() == expected)
    }

    @Test func emptyDocument() throws {
        let text = try JSONDocument().encoded()
        #expect(
            text == """
                {
                  "edges": [],
                  "nodes": [],
                  "version": 1,
                  "viewport": {
                    "offset": [0, 0],
                    "zoom": 1
                  }
                }

                """)
        #expect(try JSONDocument.decode(text) == JSONDocument())
    }

    @Test func encodedKeysAreSorted() throws {
        let text = try Self.smallDocument.encoded()
        // Every object of the document structure has its keys in UTF-8 order; data keeps its own.
        let json = try JSONValue.parse(text)
        var unsorted: [[String]] = []
        func visit(_ v: JSONValue) {
            switch v {
            case .object(let o):
                if o.keys != o.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                    unsorted.append(o.keys)
                }
                for (_, child) in o { visit(child) }
            case .array(let a): a.forEach(visit)
            default: break
            }
        }
        visit(json)
        #expect(unsorted == [["text", "n", "tags"]])
    }

    @Test func flagsAreNotWritten() throws {
        var doc = Self.smallDocument
        doc.nodes[0].isSelected = true
        doc.nodes[0].isHovered = true
        doc.nodes[0].isDropTarget = true
        doc.edges[0].isSelected = true
        doc.edges[0].isDropTarget = true
        let text = try doc.encoded()
        #expect(text == (try Self.smallDocument.encoded()))
        #expect(
            !text.contains("isSelected") && !text.contains("isHovered")
                && !text.contains("isDropTarget"))
    }

    @Test func specExampleRoundTrips() throws {
        let doc = try FlowDocument<String>.decode(Self.specExample)
        let text = try doc.encoded()
        let back = try FlowDocument<String>.decode(text)
        #expect(back == doc)
        #expect(try back.encoded() == text)
    }

    @Test func smallDocumentRoundTrips() throws {
        let text = try Self.smallDocument.encoded()
        let back = try JSONDocument.decode(text)
        #expect(back == Self.smallDocument)
        #expect(try back.encoded() == text)
    }

    @Test(arguments: [11, 12, 13, 14, 15])
    func randomDocumentsRoundTrip(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<100 {
            let doc = rng.document()
            let text = try doc.encoded()
            let back = try JSONDocument.decode(text)
            #expect(back == doc)
            #expect(try back.encoded() == text)
            // The document is written in exactly the writer's layout.
            #expect(try JSONValue.parse(text).serialized(sortedKeys: false) + "\n" == text)
            // Numbers keep their exact bits, -0 included.
            for (a, b) in zip(doc.nodes, back.nodes) {
                #expect(a.position.x.bitPattern == b.position.x.bitPattern)
                #expect(a.size.height.bitPattern == b.size.height.bitPattern)
            }
            for (a, b) in zip(doc.edges, back.edges) {
                #expect(a.points.map(\.y.bitPattern) == b.points.map(\.y.bitPattern))
            }
            #expect(doc.viewport.zoom.bitPattern == back.viewport.zoom.bitPattern)
        }
    }

    @Test func encodingRefusesNumbersThatWouldNotReadBack() {
        func encodeError(_ doc: JSONDocument) -> String? {
            do throws(FlowError) {
                _ = try doc.encoded()
                return nil
            } catch {
                #expect(error.code == .invalidValue)
                return error.description
            }
        }
        var doc = Self.smallDocument
        doc.nodes[1].position.x = .nan
        #expect(
            encodeError(doc)
                == "export: nodes[1].position: a number is not finite and cannot be written as JSON"
        )
        doc = Self.smallDocument
        doc.nodes[0].size.height = .infinity
        #expect(
            encodeError(doc)
                == "export: nodes[0].size: a number is not finite and cannot be written as JSON")
        doc = Self.smallDocument
        doc.viewport.zoom = .nan
        #expect(
            encodeError(doc)
                == "export: viewport.zoom: a number is not finite and cannot be written as JSON")
        doc = Self.smallDocument
        doc.nodes[0].handles[0].connectionTargetArea = .point(radius: .infinity)
        #expect(
            encodeError(doc)
                == "export: nodes[0].handles[0].connectionTargetArea.point.radius: a number is not finite and cannot be written as JSON"
        )
        doc = Self.smallDocument
        doc.edges[0].points = [Point(1, 2), Point(3, -.infinity)]
        #expect(
            encodeError(doc)
                == "export: edges[0].points[1]: a number is not finite and cannot be written as JSON")
        doc = Self.smallDocument
        doc.nodes[1].zIndex = Int.max
        #expect(encodeError(doc)?.hasPrefix("export: nodes[1].zIndex: ") == true)
        doc.nodes[1].zIndex = 9_007_199_254_740_992
        #expect(encodeError(doc) == nil)
    }

    @Test func dataErrorsNameTheNode() {
        struct Picky: FlowNodeData {
            func jsonValue() throws(FlowError) -> JSONValue {
                throw .invalidValue("export", "cannot write")
            }
            init(jsonValue: JSONValue) throws(FlowError) {
                throw .invalidValue("load", "cannot read")
            }
            init() {}
        }
        let doc = FlowDocument(nodes: [FlowNode(id: "a", position: .zero, data: Picky())])
        #expect(throws: FlowError.invalidValue("export", "nodes[0].data: cannot write")) {
            try doc.encoded()
        }
        let text = documentText(nodes: [#"{"id":"a","position":[1,2],"size":[3,4]}"#])
        #expect(throws: FlowError.invalidDocument("open", "nodes[0].data: cannot read")) {
            try FlowDocument<Picky>.decode(text, operation: "open")
        }
    }

    /// A random change somewhere in a parsed document: a key removed, set to null or to a
    /// value of another type, an unknown key added, an enum value misspelled.
    static func mutated(_ value: JSONValue, _ rng: inout SplitMix64, depth: Int = 0) -> JSONValue {
        switch value {
        case .array(var elements) where !elements.isEmpty:
            let i = rng.below(elements.count)
            elements[i] = mutated(elements[i], &rng, depth: depth + 1)
            return .array(elements)
        case .object(var object) where !object.isEmpty:
            let key = object.keys[rng.below(object.count)]
            if depth < 6 && rng.chance(70), let child = object[key] {
                object[key] = mutated(child, &rng, depth: depth + 1)
                return .object(object)
            }
            switch rng.below(6) {
            case 0: object[key] = nil
            case 1: object[key] = .null
            case 2:
                object[key] = rng.pick([
                    .number(1.5), .string("x"), .bool(true), .array([]), .object(JSONObject()),
                ])
            case 3: object["unknown\(rng.below(3))"] = rng.jsonValue()
            case 4:
                object[key] = .string(
                    rng.pick(["bezier", "top", "source", "valid", "normal", "nope", ""]))
            default: object[key] = .array([.number(1), .number(2)])
            }
            return .object(object)
        default:
            return value
        }
    }

    /// The fast reader, when it succeeds, gives exactly what the general one gives; and
    /// `decode` always agrees with the general reader (result or error).
    @Test(arguments: [21, 22, 23])
    func fastAndGeneralReadersAgree(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var fastCount = 0
        var total = 0
        for _ in 0..<60 {
            let text = try rng.document().encoded()
            let json = try JSONValue.parse(text)
            var variants = [
                text,
                json.serialized(pretty: false, sortedKeys: false),
                json.serialized(pretty: true, sortedKeys: true),
                Self.mutated(json, &rng).serialized(pretty: rng.chance(50), sortedKeys: false),
                Self.mutated(Self.mutated(json, &rng), &rng).serialized(
                    pretty: false, sortedKeys: false),
                text.replacing(
                    "\"id\": ", with: "\"id\": \"dup\", \"id\": ", maxReplacements: 1 + rng.below(3)
                ),
                text.replacing("\"id\": ", with: "\"\\u0069d\": ", maxReplacements: 1),
                text.replacing("\"zoom\": ", with: "\"zoom\": null, \"zoom\": "),
                text.replacing("[", with: "[ ", maxReplacements: 3),
                String(text.prefix(rng.below(text.count + 1))),
            ]
            if rng.chance(30) { variants.append(text + " x") }
            for variant in variants {
                total += 1
                let general = Result { () throws(FlowError) -> JSONDocument in
                    try JSONDocument(
                        json: try JSONValue.parse(variant, operation: "load"), operation: "load")
                }
                if let fast = JSONDocument.decodeUsualForm(variant) {
                    fastCount += 1
                    #expect(general == .success(fast), "\(variant)")
                }
                let decoded = Result { () throws(FlowError) -> JSONDocument in
                    try JSONDocument.decode(variant)
                }
                #expect(decoded == general, "\(variant)")
            }
        }
        // Both readers were exercised.
        #expect(fastCount > total / 4)
        #expect(fastCount < total)
    }

    /// Every proper prefix of a document is an error (never a crash), by both readers.
    @Test func everyPrefixFailsCleanly() throws {
        var doc = Self.smallDocument
        doc.nodes[0].data = .object(
            JSONObject([
                ("a-key-longer-than-sixteen-bytes", .string("tab\there, quote \" and \u{1F600}")),
                ("n", .array([.number(-0.0), .number(1e-7), .bool(false), .null])),
            ]))
        doc.nodes[1].handles = [
            HandleDeclaration(id: "h", type: .source, position: .right, connectionStartArea: .node)
        ]
        let text = try doc.encoded()
        #expect(try JSONDocument.decode(text) == doc)
        let utf8 = Array(text.utf8)
        for n in 0..<(utf8.count - 1) {  // (without its final newline the text is still whole)
            let prefix = String(decoding: utf8[..<n], as: UTF8.self)
            #expect(decodeError(prefix) != nil)
            #expect(JSONDocument.decodeUsualForm(prefix) == nil)
        }
    }

    @Test func fastEnumNamesMatchTheEnums() {
        func names<E: FlowEnum>(_ table: [(StaticString, E)]) -> [String] {
            table.map { "\($0.0)" }
        }
        func values<E: FlowEnum>(_ table: [(StaticString, E)]) -> [String] {
            table.map(\.1.rawValue)
        }
        func all<E: FlowEnum>(_ type: E.Type) -> [String] { E.allCases.map(\.rawValue) }
        #expect(names(FastEnumNames.persistences) == all(NodePersistence.self))
        #expect(values(FastEnumNames.persistences) == all(NodePersistence.self))
        #expect(names(FastEnumNames.handleTypes) == all(HandleType.self))
        #expect(values(FastEnumNames.handleTypes) == all(HandleType.self))
        #expect(names(FastEnumNames.handlePositions) == all(HandlePosition.self))
        #expect(values(FastEnumNames.handlePositions) == all(HandlePosition.self))
        #expect(names(FastEnumNames.draftStates) == all(DraftPresentationState.self))
        #expect(values(FastEnumNames.draftStates) == all(DraftPresentationState.self))
        #expect(names(FastEnumNames.pathTypes) == all(EdgePathType.self))
        #expect(values(FastEnumNames.pathTypes) == all(EdgePathType.self))
    }

    @Test func decodeFromParsedValue() throws {
        let json = try JSONValue.parse(Self.specExample)
        #expect(
            try FlowDocument<String>(json: json) == FlowDocument<String>.decode(Self.specExample))
    }
}
