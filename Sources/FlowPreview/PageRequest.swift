import FlowCore

/// What a page asks of the store it shows (docs/preview.md, "Protocol"). Requests are
/// checked for form on the server's side (`parse`); whether their ids exist is checked
/// where the store lives, when the request is applied.
public enum PageRequest: Sendable, Equatable {
    /// Which kind of item a `select` names.
    public enum Item: String, Sendable {
        case node, edge
    }

    /// The phases of a pointer gesture that starts on a node.
    public enum Phase: String, Sendable, CaseIterable {
        case down, move, up, cancel
    }

    /// `{"type":"select","node":"a"}` or `{"type":"select","edge":"e1","add":true}`: select
    /// the item, instead of the selection unless `add`.
    case select(Item, id: String, add: Bool)
    /// `{"type":"clearSelection"}`.
    case clearSelection
    /// `{"type":"pointer","phase":"down","x":10,"y":20}`: the pointer at a canvas point
    /// (`cancel` needs no point). A press, moves and a release are a tap or a drag, as with
    /// the store's pointer input; one drag is one undo step.
    case pointer(Phase, x: Double, y: Double)
    /// `{"type":"add","x":10,"y":20}` (and `"label":"..."`, at most 200 characters): a
    /// node of the default size centred at the canvas point, with the id `addNode` would
    /// make up (`n1`, `n2`, ...).
    case add(x: Double, y: Double, label: String?)
    /// `{"type":"delete"}`: `store:deleteSelection()`.
    case delete
    /// `{"type":"view","view":3}`: show the store of view 3 from now on;
    /// `{"type":"view","view":null}` (or no `view`): the store changed last. Handled by the
    /// hub, never queued for the store.
    case view(Int?)

    /// Reads one message from a page. Throws a message for the page's error reply.
    public static func parse(_ text: String) throws(PageRequestError) -> PageRequest {
        let value: JSONValue
        do { value = try JSONValue.parse(text, operation: "message") } catch {
            throw PageRequestError(error.description)
        }
        guard case .object(let object) = value else { throw PageRequestError("message: a JSON object expected") }
        guard case .string(let type)? = object["type"] else {
            throw PageRequestError("message: field 'type' (a string) expected")
        }
        switch type {
        case "select":
            let add = try flag(object, "add", type)
            switch (object["node"], object["edge"]) {
            case (.string(let id)?, nil): return .select(.node, id: id, add: add)
            case (nil, .string(let id)?): return .select(.edge, id: id, add: add)
            default: throw PageRequestError("select: one of 'node' or 'edge' (a string id) expected")
            }
        case "clearSelection":
            return .clearSelection
        case "delete":
            return .delete
        case "add":
            let x = try coordinate(object, "x", type), y = try coordinate(object, "y", type)
            switch object["label"] {
            case nil: return .add(x: x, y: y, label: nil)
            case .string(let label)? where label.count <= 200: return .add(x: x, y: y, label: label)
            default: throw PageRequestError("add: field 'label' (a string of at most 200 characters) expected")
            }
        case "pointer":
            guard case .string(let name)? = object["phase"], let phase = Phase(rawValue: name) else {
                throw PageRequestError("pointer: field 'phase' expected (down, move, up or cancel)")
            }
            if phase == .cancel { return .pointer(.cancel, x: 0, y: 0) }
            return .pointer(phase, x: try coordinate(object, "x", type), y: try coordinate(object, "y", type))
        case "view":
            switch object["view"] {
            case nil, .null?: return .view(nil)
            case .number(let v)? where v >= 1 && v <= 1e9 && v == v.rounded(): return .view(Int(v))
            default: throw PageRequestError("view: field 'view' (a store's view number or null) expected")
            }
        default:
            throw PageRequestError("message: unknown type '\(type)'")
        }
    }

    private static func flag(_ object: JSONObject, _ key: String, _ type: String) throws(PageRequestError) -> Bool {
        switch object[key] {
        case nil: return false
        case .bool(let b)?: return b
        default: throw PageRequestError("\(type): field '\(key)' must be a boolean")
        }
    }

    private static func coordinate(_ object: JSONObject, _ key: String, _ type: String) throws(PageRequestError) -> Double {
        guard case .number(let v)? = object[key], v.isFinite, abs(v) <= 1e9 else {
            throw PageRequestError("\(type): field '\(key)' (a finite number) expected")
        }
        return v
    }
}

/// Why a page's message was refused: sent back to the page as `{"type":"error",...}`.
public struct PageRequestError: Error, Sendable, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
}
