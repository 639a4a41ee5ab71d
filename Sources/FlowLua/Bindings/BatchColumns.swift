import CLua
import CLuaShims
import FlowCore

// lua-api §2/§3: the column form of the batch adds, `store:addNodes{id = ids, x = xs, ...}`.
//
// A table whose [1] is nil is read as columns: each field is a column (a table whose
// element i is item i's value) or, when it is not a table, the same value for every item.
// Every column has the same length, the number of items. An element (or a value) that is
// `flow.null` leaves that field out for that item. Item i is what the list form's entry i
// would be with those fields, and is read by the same code: C reads the common fields
// (flua_readcolumns), an item with anything else is made into an entry table and read by
// the list form's general reader.

/// The columns of a batch add, their values pushed on the stack while the call reads them.
struct BatchColumns {
    /// A field the table names: where its value is on the stack, and whether it is a column.
    struct Field {
        let name: String
        let at: Int32
        let isColumn: Bool
    }

    let L: OpaquePointer
    let op: String
    let fields: [Field]
    /// The number of items (the columns' length).
    let count: Int
    /// For flua_readcolumns: the stack index of each C key's value (0: absent) and which
    /// are columns; nil when some field is not one of C's keys (every item is then read by
    /// the general reader).
    let keyed: (at: [Int32], columns: UInt32)?

    /// The columns of the table at argument `t`, or nil when it is a list (its [1] is not
    /// nil, or it is empty). `names` are the fields the spec knows, in the order errors
    /// compare them; `keys` the fields C reads, in its key order.
    init?(_ t: LuaTable, op: String, names: [String], keys: [String]) throws(LuaError) {
        let L = t.L
        let isList = lua_rawgeti(L, t.index, 1) != LUA_TNIL
        flua_pop(L, 1)
        let (given, other) = t.stringKeys()
        if isList || (given.isEmpty && !other) { return nil }
        try t.rejectUnknownKeys(Set(names))
        guard LuaStack(L).reserve(Int32(names.count) + 4) else { throw t.error("too many fields") }
        var fields: [Field] = []
        var first: (name: String, count: Int)?
        for name in names where given.contains(name) {
            let isColumn = t.pushField(name) == LUA_TTABLE
            fields.append(Field(name: name, at: lua_gettop(L), isColumn: isColumn))
            guard isColumn else { continue }
            let n = Int(lua_rawlen(L, -1))
            if let first, first.count != n {
                func items(_ k: Int) -> String { "\(k) item\(k == 1 ? "" : "s")" }
                throw t.error(
                    "columns of unequal length: '\(first.name)' has \(items(first.count)), '\(name)' has \(items(n))")
            }
            first = first ?? (name, n)
        }
        guard let first else { throw t.error("a table of columns needs at least one column (a table of values)") }
        self.L = L
        self.op = op
        self.fields = fields
        self.count = first.count
        var at = [Int32](repeating: 0, count: keys.count)
        var columns: UInt32 = 0
        for f in fields {
            guard let k = keys.firstIndex(of: f.name) else {
                keyed = nil
                return
            }
            at[k] = f.at
            if f.isColumn { columns |= 1 << UInt32(k) }
        }
        keyed = (at, columns)
    }

    /// Reads items from, from + 1, ... (at most `count`) of the common fields into `out`
    /// (flua_readcolumns); 0 when the general reader must read them.
    func fill(kind: Int32, from: Int, count n: Int, into out: UnsafeMutablePointer<flua_Entry>) -> Int {
        guard let keyed else { return 0 }
        return Int(flua_readcolumns(L, keyed.at, keyed.columns, lua_Integer(from), Int32(n), kind, out))
    }

    /// Item `i` read by `read` from an entry table of its values (at the top of the stack).
    func item<T>(_ i: Int, _ read: () throws -> T) throws -> T {
        lua_createtable(L, 0, Int32(fields.count))  // [.., entry]
        defer { flua_pop(L, 1) }
        for f in fields {
            if f.isColumn { lua_rawgeti(L, f.at, lua_Integer(i)) } else { lua_pushvalue(L, f.at) }  // [.., entry, v]
            if lua_type(L, -1) == LUA_TNIL {
                flua_pop(L, 1)
                throw LuaError.message("\(op): item \(i): field '\(f.name)': nil in a column (flow.null leaves a field out)")
            }
            if LuaNull.isNull(L, -1) {
                flua_pop(L, 1)
            } else {
                lua_setfield(L, -2, f.name)  // [.., entry]
            }
        }
        return try read()
    }
}
