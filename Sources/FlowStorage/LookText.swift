import FlowCore

/// The diagram's look (`DiagramLook`: title, rank sets, spacing, direction, font, page
/// colour) as a workspace keeps it beside the style sheet: the document's `"diagram"`
/// object as compact text (`diagram.look`, `flow_diagram.look` in PostgreSQL). Only a
/// `load` changes it, so the look of a diagram is the one of its newest `load` action.
public enum LookText {
    /// The text kept for `look`.
    public static func text(_ look: DiagramLook) -> String {
        look.jsonValue.serialized(pretty: false)
    }

    /// Reads a kept look; errors are reported for the workspace function `operation`.
    public static func look(_ text: String, _ operation: String) throws(FlowError) -> DiagramLook {
        try DiagramLook(json: JSONValue.parse(text, operation: operation), operation: operation)
    }

    /// The text of the look the last `load` action of a batch (its JSON text, as the
    /// history keeps it) gives (an empty look's when its look does not read), or nil when
    /// the batch has no `load` or is not JSON. An upgrade takes the look from the history:
    /// schema 1 kept it only there.
    public static func ofLastLoad(inBatch batchText: String) -> String? {
        guard case .object(let batch)? = try? JSONValue.parse(batchText, operation: "workspace"),
            case .array(let actions)? = batch["actions"]
        else { return nil }
        for a in actions.reversed() {
            guard case .object(let o) = a, o["op"] == .string("load") else { continue }
            guard case .object(let document)? = o["document"],
                let look = try? DiagramLook(json: document["diagram"], operation: "workspace")
            else { return text(DiagramLook()) }
            return text(look)
        }
        return nil
    }

    /// Whether a batch's JSON text may hold a `load` action (a filter for SQL `LIKE`: a
    /// label's quotes are escaped, so only an action's own `"op":"load"` matches).
    public static let loadPattern = "%\"op\":\"load\"%"
}
