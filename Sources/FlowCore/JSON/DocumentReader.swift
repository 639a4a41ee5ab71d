/// Shape checks for `FlowDocument` decoding. Paths are built only when an error is thrown.
struct DocumentReader {
    let operation: String

    func error(_ path: String, _ message: String) -> FlowError {
        .invalidDocument(operation, path.isEmpty ? message : "\(path): \(message)")
    }

    private func missing(_ path: String, _ expected: String) -> FlowError {
        error(path, "missing (expected \(expected))")
    }

    // MARK: Values

    func object(_ v: JSONValue?, _ path: @autoclosure () -> String) throws(FlowError) -> JSONObject
    {
        guard let v else { throw missing(path(), "an object") }
        guard case .object(let o) = v else { throw error(path(), "expected an object") }
        return o
    }

    func array(_ v: JSONValue?, _ path: @autoclosure () -> String) throws(FlowError) -> [JSONValue]
    {
        guard let v else { throw missing(path(), "an array") }
        guard case .array(let a) = v else { throw error(path(), "expected an array") }
        return a
    }

    func string(_ v: JSONValue?, _ path: @autoclosure () -> String) throws(FlowError) -> String {
        guard let v else { throw missing(path(), "a string") }
        guard case .string(let s) = v else { throw error(path(), "expected a string") }
        return s
    }

    func number(_ v: JSONValue?, _ path: @autoclosure () -> String) throws(FlowError) -> Double {
        guard let v else { throw missing(path(), "a number") }
        guard case .number(let n) = v, n.isFinite else { throw error(path(), "expected a number") }
        return n
    }

    func pair(_ v: JSONValue?, _ path: @autoclosure () -> String) throws(FlowError) -> (
        Double, Double
    ) {
        guard let v else { throw missing(path(), "an array of 2 numbers") }
        guard case .array(let a) = v, a.count == 2, case .number(let x) = a[0],
            case .number(let y) = a[1],
            x.isFinite, y.isFinite
        else { throw error(path(), "expected an array of 2 numbers") }
        return (x, y)
    }

    /// nil when missing or null.
    func optionalString(_ v: JSONValue?, _ path: @autoclosure () -> String) throws(FlowError)
        -> String?
    {
        switch v {
        case nil, .null?: return nil
        case .string(let s)?: return s
        default: throw error(path(), "expected a string or null")
        }
    }

    func bool(_ v: JSONValue?, default value: Bool, _ path: @autoclosure () -> String)
        throws(FlowError)
        -> Bool
    {
        switch v {
        case nil, .null?: return value
        case .bool(let b)?: return b
        default: throw error(path(), "expected true or false")
        }
    }

    func integer(_ v: JSONValue?, default value: Int, _ path: @autoclosure () -> String)
        throws(FlowError)
        -> Int
    {
        switch v {
        case nil, .null?: return value
        case .number(let n)? where n.magnitude <= 9_007_199_254_740_992:
            if let i = Int(exactly: n) { return i }
        default: break
        }
        throw error(path(), "expected an integer between -2^53 and 2^53")
    }

    /// A string enum; `defaultValue` nil makes it required.
    func enumValue<E: FlowEnum>(
        _ v: JSONValue?, _ type: E.Type, default defaultValue: E? = nil,
        _ path: @autoclosure () -> String
    ) throws(FlowError) -> E {
        func expected() -> String {
            "one of: " + E.allCases.map(\.rawValue).joined(separator: ", ")
        }
        switch v {
        case nil, .null?:
            if let defaultValue { return defaultValue }
            throw missing(path(), expected())
        case .string(let raw)?:
            if let value = E(rawValue: raw) { return value }
            do throws(FlowError) {
                return try E.parse(raw, in: operation)
            } catch {
                throw self.error(path(), error.message)
            }
        default:
            throw error(path(), "expected a string, \(expected())")
        }
    }

    /// An object with exactly one key naming an enum case, and that key's object payload.
    func singleCase(
        _ v: JSONValue, kind: String, cases: [String], _ path: @autoclosure () -> String
    ) throws(FlowError) -> (String, JSONObject) {
        let list = cases.joined(separator: ", ")
        guard case .object(let o) = v, o.count == 1, let name = o.keys.first else {
            throw error(path(), "expected an object with one key, one of: \(list)")
        }
        guard cases.contains(name) else {
            throw error(path(), "invalid \(kind) '\(name)' (expected one of: \(list))")
        }
        let payload = try object(o[name], "\(path()).\(name)")
        return (name, payload)
    }

    // MARK: Document parts

    // Fields are found in one pass over an object's keys, comparing lengths first. The
    // field names are ASCII without `K`, `;` or `` ` ``, the only ASCII characters with a
    // canonically equivalent non-ASCII spelling, so a key of another length never equals
    // them: this finds what `object[name]` would.

    func node<Data: FlowNodeData>(_ v: JSONValue, _ i: Int) throws(FlowError) -> FlowNode<Data> {
        let o = try object(v, "nodes[\(i)]")
        var id: JSONValue?
        var position: JSONValue?
        var size: JSONValue?
        var data: JSONValue?
        var parentID: JSONValue?
        var phase: JSONValue?
        var persistence: JSONValue?
        var isDraggable: JSONValue?
        var acceptsChildren: JSONValue?
        var zIndex: JSONValue?
        var handles: JSONValue?
        var autoSize: JSONValue?, classes: JSONValue?, shape: JSONValue?, style: JSONValue?
        for k in 0..<o.count {
            let key = o.keys[k]
            switch key.utf8.count {
            case 2: if key == "id" { id = o.value(at: k) }
            case 4:
                if key == "data" {
                    data = o.value(at: k)
                } else if key == "size" {
                    size = o.value(at: k)
                }
            case 5:
                if key == "phase" {
                    phase = o.value(at: k)
                } else if key == "shape" {
                    shape = o.value(at: k)
                } else if key == "style" {
                    style = o.value(at: k)
                }
            case 6: if key == "zIndex" { zIndex = o.value(at: k) }
            case 7:
                if key == "handles" {
                    handles = o.value(at: k)
                } else if key == "classes" {
                    classes = o.value(at: k)
                }
            case 8:
                if key == "position" {
                    position = o.value(at: k)
                } else if key == "parentID" {
                    parentID = o.value(at: k)
                } else if key == "autoSize" {
                    autoSize = o.value(at: k)
                }
            case 11:
                if key == "isDraggable" {
                    isDraggable = o.value(at: k)
                } else if key == "persistence" {
                    persistence = o.value(at: k)
                }
            case 15: if key == "acceptsChildren" { acceptsChildren = o.value(at: k) }
            default: break
            }
        }
        let path = { "nodes[\(i)]" }
        let decodedID = try string(id, "\(path()).id")
        let decodedPosition = try pair(position, "\(path()).position")
        let decodedSize = try pair(size, "\(path()).size")
        let decodedData: Data
        do throws(FlowError) {
            decodedData = try Data(jsonValue: data ?? .null)
        } catch {
            throw self.error("\(path()).data", error.message)
        }
        let decodedHandles: [HandleDeclaration]
        switch handles {
        case nil, .null?:
            decodedHandles = HandleDeclaration.defaults
        case let value?:
            let list = try array(value, "\(path()).handles")
            var decoded: [HandleDeclaration] = []
            decoded.reserveCapacity(list.count)
            for h in list.indices {
                decoded.append(try handle(list[h], "\(path()).handles[\(h)]"))
            }
            decodedHandles = decoded
        }
        let styles = StyleReader(operation: operation)
        let nodeSize = Size(decodedSize.0, decodedSize.1)
        return FlowNode(
            id: decodedID,
            position: Point(decodedPosition.0, decodedPosition.1),
            size: nodeSize,
            data: decodedData,
            parentID: try optionalString(parentID, "\(path()).parentID"),
            phase: try self.phase(phase, "\(path()).phase"),
            persistence: try enumValue(
                persistence, NodePersistence.self, default: .persistent, "\(path()).persistence"),
            isDraggable: try bool(isDraggable, default: true, "\(path()).isDraggable"),
            acceptsChildren: try bool(acceptsChildren, default: false, "\(path()).acceptsChildren"),
            zIndex: try integer(zIndex, default: 0, "\(path()).zIndex"),
            handles: decodedHandles,
            shape: try styles.shape(shape, "\(path()).shape"),
            classes: try styles.classes(classes, "\(path()).classes"),
            style: try styles.style(style, "\(path()).style").style,
            autoSize: try bool(autoSize, default: nodeSize == FlowNode<Data>.defaultSize, "\(path()).autoSize"))
    }

    func phase(_ v: JSONValue?, _ path: @autoclosure () -> String) throws(FlowError)
        -> FlowNodePhase
    {
        guard let v, v != .null else { return .normal }
        let (name, payload) = try singleCase(v, kind: "phase", cases: ["normal", "draft"], path())
        guard name == "draft" else { return .normal }
        return .draft(
            try enumValue(payload["_0"], DraftPresentationState.self, "\(path()).draft._0"))
    }

    func handle(_ v: JSONValue, _ path: @autoclosure () -> String) throws(FlowError)
        -> HandleDeclaration
    {
        let o = try object(v, path())
        var id: JSONValue?
        var type: JSONValue?
        var position: JSONValue?
        var startArea: JSONValue?
        var targetArea: JSONValue?
        var offset: JSONValue?
        for k in 0..<o.count {
            let key = o.keys[k]
            switch key.utf8.count {
            case 2: if key == "id" { id = o.value(at: k) }
            case 6: if key == "offset" { offset = o.value(at: k) }
            case 4: if key == "type" { type = o.value(at: k) }
            case 8: if key == "position" { position = o.value(at: k) }
            case 19: if key == "connectionStartArea" { startArea = o.value(at: k) }
            case 20: if key == "connectionTargetArea" { targetArea = o.value(at: k) }
            default: break
            }
        }
        return HandleDeclaration(
            id: try string(id, "\(path()).id"),
            type: try enumValue(type, HandleType.self, "\(path()).type"),
            position: try enumValue(position, HandlePosition.self, "\(path()).position"),
            connectionStartArea: try hitArea(startArea, "\(path()).connectionStartArea"),
            connectionTargetArea: try hitArea(targetArea, "\(path()).connectionTargetArea"),
            offset: offset == nil ? 0 : try number(offset, "\(path()).offset"))
    }

    func hitArea(_ v: JSONValue?, _ path: @autoclosure () -> String) throws(FlowError)
        -> HandleHitArea?
    {
        guard let v, v != .null else { return nil }
        let (name, payload) = try singleCase(
            v, kind: "hit area", cases: ["disabled", "point", "node", "nodeBorder"], path())
        switch name {
        case "point": return .point(radius: try number(payload["radius"], "\(path()).point.radius"))
        case "nodeBorder":
            return .nodeBorder(width: try number(payload["width"], "\(path()).nodeBorder.width"))
        case "node": return .node
        default: return .disabled
        }
    }

    func edge(_ v: JSONValue, _ i: Int) throws(FlowError) -> FlowEdge {
        let o = try object(v, "edges[\(i)]")
        var id: JSONValue?
        var source: JSONValue?
        var sourceHandle: JSONValue?
        var target: JSONValue?
        var targetHandle: JSONValue?
        var parentID: JSONValue?
        var pathType: JSONValue?
        var label: JSONValue?
        var points: JSONValue?
        var classes: JSONValue?, style: JSONValue?
        for k in 0..<o.count {
            let key = o.keys[k]
            switch key.utf8.count {
            case 2: if key == "id" { id = o.value(at: k) }
            case 5:
                if key == "label" {
                    label = o.value(at: k)
                } else if key == "style" {
                    style = o.value(at: k)
                }
            case 7: if key == "classes" { classes = o.value(at: k) }
            case 6: if key == "points" { points = o.value(at: k) }
            case 8:
                if key == "pathType" {
                    pathType = o.value(at: k)
                } else if key == "parentID" {
                    parentID = o.value(at: k)
                }
            case 12:
                if key == "sourceNodeID" {
                    source = o.value(at: k)
                } else if key == "targetNodeID" {
                    target = o.value(at: k)
                }
            case 14:
                if key == "sourceHandleID" {
                    sourceHandle = o.value(at: k)
                } else if key == "targetHandleID" {
                    targetHandle = o.value(at: k)
                }
            default: break
            }
        }
        return FlowEdge(
            id: try string(id, "edges[\(i)].id"),
            sourceNodeID: try string(source, "edges[\(i)].sourceNodeID"),
            sourceHandleID: try optionalString(sourceHandle, "edges[\(i)].sourceHandleID"),
            targetNodeID: try string(target, "edges[\(i)].targetNodeID"),
            targetHandleID: try optionalString(targetHandle, "edges[\(i)].targetHandleID"),
            parentID: try optionalString(parentID, "edges[\(i)].parentID"),
            pathType: try enumValue(
                pathType, EdgePathType.self, default: .bezier, "edges[\(i)].pathType"),
            label: try optionalString(label, "edges[\(i)].label"),
            points: try pointList(points, "edges[\(i)].points"),
            classes: try StyleReader(operation: operation).classes(classes, "edges[\(i)].classes"),
            style: try StyleReader(operation: operation).style(style, "edges[\(i)].style").style)
    }

    /// Bend points: `[[x, y], …]`; none when missing or null.
    func pointList(_ v: JSONValue?, _ path: @autoclosure () -> String) throws(FlowError) -> [Point] {
        guard let v, v != .null else { return [] }
        let list = try array(v, path())
        var points: [Point] = []
        points.reserveCapacity(list.count)
        for k in list.indices {
            let (x, y) = try pair(list[k], "\(path())[\(k)]")
            points.append(Point(x, y))
        }
        return points
    }
}
