import TestSupport
import Testing

@testable import FlowCore

// MARK: Helpers

extension SplitMix64 {
    /// A finite double drawn from a mix of everyday and awkward values.
    mutating func double() -> Double {
        switch below(6) {
        case 0: return Double(below(2001) - 1000)
        case 1: return Double(below(20001) - 10000) / 8
        case 2:
            while true {
                let v = Double(bitPattern: next())
                if v.isFinite { return v }
            }
        case 3:
            return pick([
                -0.0, 0.1, 0.2, 0.30000000000000004, .leastNonzeroMagnitude, 1e300, -1e300,
                9_007_199_254_740_992,
                -9_007_199_254_740_992, 9_007_199_254_740_994, 9_007_199_254_740_991, 1e21, 1e-7,
                Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude,
                Double.leastNormalMagnitude, Double.leastNormalMagnitude.nextDown, 123456.789,
                1 / 3,
            ])
        case 4: return Double(below(1_000_000)) / 1000 * (chance(50) ? 1 : -1)
        default: return Double(Int64(bitPattern: next()) >> Int64(below(60)))
        }
    }

    mutating func string(maxLength: Int = 8) -> String {
        let alphabet: [String] = [
            "a", "b", "Z", "0", " ", ",", ", ", "/", "\"", "\\", "\n", "\r", "\t", "\u{0}",
            "\u{1}", "\u{1F}", "\u{7F}", "é", "中", "😀", "\u{2028}", "e\u{301}", "{", "]",
        ]
        var s = ""
        for _ in 0..<below(maxLength + 1) { s += pick(alphabet) }
        return s
    }

    mutating func jsonValue(depth: Int = 0) -> JSONValue {
        let kinds = depth >= 4 ? 4 : 6
        switch below(kinds) {
        case 0: return .null
        case 1: return .bool(chance(50))
        case 2: return .number(double())
        case 3: return .string(string())
        case 4: return .array((0..<below(5)).map { _ in jsonValue(depth: depth + 1) })
        default:
            var object = JSONObject()
            for _ in 0..<below(5) { object[string(maxLength: 3)] = jsonValue(depth: depth + 1) }
            return .object(object)
        }
    }
}

/// The error description of parsing `text`, or nil when it parses.
func parseError(_ text: String, operation: String = "decode") -> String? {
    do throws(FlowError) {
        _ = try JSONValue.parse(text, operation: operation)
        return nil
    } catch {
        #expect(error.code == .invalidDocument)
        return error.description
    }
}

func parsed(_ text: String) -> JSONValue? {
    try? JSONValue.parse(text)
}

// MARK: - Parsing

@Suite struct JSONTests {
    @Test func scalars() throws {
        #expect(parsed("null") == .null)
        #expect(parsed("true") == .bool(true))
        #expect(parsed("false") == .bool(false))
        #expect(parsed(" \t\r\n 42 \n") == .number(42))
        #expect(parsed("\"hi\"") == .string("hi"))
        #expect(parsed("[]") == .array([]))
        #expect(parsed("{}") == .object(JSONObject()))
        #expect(
            parsed("[1, [2, {\"a\": [true, null]}]]")
                == .array([
                    .number(1),
                    .array([
                        .number(2), .object(JSONObject([("a", .array([.bool(true), .null]))])),
                    ]),
                ]))
    }

    @Test func stringEscapes() {
        #expect(parsed(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{8}\u{C}\n\r\t"))
        #expect(parsed(#""\u0041\u00e9\u20AC\u0000""#) == .string("Aé€\u{0}"))
        #expect(parsed(#""x\u00E9y""#) == .string("xéy"))
        #expect(parsed(#""a\nb" "#) == .string("a\nb"))
    }

    @Test func unicode() {
        #expect(parsed("\"ü中😀\"") == .string("ü中😀"))
        #expect(parsed(#""\uD83D\uDE00""#) == .string("😀"))
        #expect(parsed(#""\ud834\udd1e!""#) == .string("𝄞!"))
        #expect(
            parsed("{\"é\": \"e\u{301}\"}") == .object(JSONObject([("é", .string("e\u{301}"))])))
    }

    @Test func loneSurrogatesAreErrors() {
        #expect(
            parseError(#""\uD800""#)
                == #"decode: invalid JSON at line 1, column 2: lone high surrogate, expected a \uDC00-\uDFFF escape to follow"#
        )
        #expect(parseError(#""\uD800x""#)?.contains("lone high surrogate") == true)
        #expect(
            parseError(#""ab\uDC00""#)
                == "decode: invalid JSON at line 1, column 4: lone low surrogate, expected a high surrogate before it"
        )
        #expect(
            parseError(#""\uD800\u0041""#)
                == #"decode: invalid JSON at line 1, column 8: expected a low surrogate \uDC00-\uDFFF"#
        )
        #expect(parseError(#""\uD800\uD800""#)?.contains("expected a low surrogate") == true)
    }

    @Test func badStrings() {
        #expect(
            parseError(#""\x""#)
                == #"decode: invalid JSON at line 1, column 3: invalid escape, expected one of " \ / b f n r t u after '\'"#
        )
        #expect(
            parseError(#""\u12G4""#)
                == "decode: invalid JSON at line 1, column 6: expected a hex digit")
        #expect(
            parseError("\"a\u{1}b\"")
                == "decode: invalid JSON at line 1, column 3: control character U+0001 in a string must be escaped"
        )
        #expect(parseError("\"a\nb\"")?.contains("control character U+000A") == true)
        #expect(
            parseError("\"abc")
                == "decode: invalid JSON at line 1, column 5: unexpected end of input, expected '\"' to close the string"
        )
        #expect(
            parseError("\"ab\\")
                == "decode: invalid JSON at line 1, column 5: unexpected end of input, expected an escape character after '\\'"
        )
        #expect(parseError("'a'") == "decode: invalid JSON at line 1, column 1: expected a value")
    }

    @Test func numbers() {
        func number(_ text: String) -> Double? {
            if case .number(let n)? = parsed(text) { return n }
            return nil
        }
        #expect(number("0.1") == 0.1)
        #expect(number("1e300") == 1e300)
        #expect(number("5e-324") == Double.leastNonzeroMagnitude)
        #expect(number("2.2250738585072014e-308") == Double.leastNormalMagnitude)
        #expect(number("1.7976931348623157e308") == Double.greatestFiniteMagnitude)
        #expect(number("-0")?.sign == .minus)
        #expect(number("-0.0")?.sign == .minus)
        #expect(number("0")?.sign == .plus)
        #expect(number("9007199254740992") == 9_007_199_254_740_992)
        #expect(number("9007199254740993") == 9_007_199_254_740_992)  // ties to even
        #expect(number("9007199254740995") == 9_007_199_254_740_996)
        #expect(number("1e21") == 1e21)
        #expect(number("1E+2") == 100)
        #expect(number("-12.5e-1") == -1.25)
        #expect(number("0.30000000000000004") == 0.1 + 0.2)
        #expect(number("123456789012345678901234567890") == 1.2345678901234568e29)
        #expect(number("0.000000000000000000000000000001") == 1e-30)
        #expect(number("1e-400")?.sign == .plus)
        #expect(number("1e-400") == 0)
        #expect(number("-1e-400")?.sign == .minus)
        #expect(number("2.4703282292062328e-324") == .leastNonzeroMagnitude)  // just above half the smallest subnormal
    }

    /// Every parsed number equals what the stdlib's correctly rounded conversion gives.
    @Test func numbersMatchStandardLibrary() {
        var rng = SplitMix64(seed: 7)
        func digits(_ count: Int, leading nonZero: Bool) -> String {
            var s = ""
            for k in 0..<count {
                let d = nonZero && k == 0 ? 1 + rng.below(9) : rng.below(10)
                s += String(d)
            }
            return s
        }
        for _ in 0..<20_000 {
            var text = rng.chance(30) ? "-" : ""
            text +=
                rng.chance(20) ? "0" : digits(1 + rng.below(rng.chance(50) ? 6 : 25), leading: true)
            if rng.chance(60) {
                text += "." + digits(1 + rng.below(rng.chance(50) ? 6 : 25), leading: false)
            }
            if rng.chance(40) {
                text += rng.pick(["e", "E", "e+", "e-", "E-"])
                text += String(rng.below(rng.chance(50) ? 25 : 400))
            }
            let expected = Double(text)
            let result = try? JSONValue.parse(text)
            if let expected, expected.isFinite {
                guard case .number(let n)? = result else {
                    Issue.record("\(text) did not parse")
                    continue
                }
                #expect(n.bitPattern == expected.bitPattern, "\(text)")
            } else {
                #expect(result == nil, "\(text) should be out of range")
            }
        }
    }

    @Test func badNumbers() {
        #expect(
            parseError("01")
                == "decode: invalid JSON at line 1, column 2: expected '.', 'e' or the end of the number (no leading zeros)"
        )
        #expect(
            parseError("-")
                == "decode: invalid JSON at line 1, column 2: unexpected end of input, expected a digit"
        )
        #expect(parseError("-a") == "decode: invalid JSON at line 1, column 2: expected a digit")
        #expect(
            parseError("1.")
                == "decode: invalid JSON at line 1, column 3: unexpected end of input, expected a digit after '.'"
        )
        #expect(
            parseError("1.e5")
                == "decode: invalid JSON at line 1, column 3: expected a digit after '.'")
        #expect(
            parseError("1e")
                == "decode: invalid JSON at line 1, column 3: unexpected end of input, expected a digit in the exponent"
        )
        #expect(parseError("1e+") != nil)
        #expect(parseError(".5") == "decode: invalid JSON at line 1, column 1: expected a value")
        #expect(parseError("+1") == "decode: invalid JSON at line 1, column 1: expected a value")
        #expect(
            parseError("[1e400]") == "decode: invalid JSON at line 1, column 2: number out of range"
        )
        #expect(
            parseError("-1e309") == "decode: invalid JSON at line 1, column 1: number out of range")
        #expect(parseError("NaN") != nil)
        #expect(parseError("Infinity") != nil)
        #expect(
            parseError("-Infinity") == "decode: invalid JSON at line 1, column 2: expected a digit")
        #expect(
            parseError("0x10") == "decode: invalid JSON at line 1, column 2: expected end of input")
        #expect(parseError("1_000") != nil)
    }

    @Test func structureErrors() {
        #expect(
            parseError("")
                == "decode: invalid JSON at line 1, column 1: unexpected end of input, expected a value"
        )
        #expect(
            parseError(" \n ")
                == "decode: invalid JSON at line 2, column 2: unexpected end of input, expected a value"
        )
        #expect(
            parseError("1 2") == "decode: invalid JSON at line 1, column 3: expected end of input")
        #expect(
            parseError("{} x") == "decode: invalid JSON at line 1, column 4: expected end of input")
        #expect(parseError("[1,]") == "decode: invalid JSON at line 1, column 4: expected a value")
        #expect(
            parseError("[1 2]") == "decode: invalid JSON at line 1, column 4: expected ',' or ']'")
        #expect(
            parseError("[1")
                == "decode: invalid JSON at line 1, column 3: unexpected end of input, expected ',' or ']'"
        )
        #expect(
            parseError("{\"a\":1,}")
                == "decode: invalid JSON at line 1, column 8: expected a string key")
        #expect(parseError("{\"a\" 1}") == "decode: invalid JSON at line 1, column 6: expected ':'")
        #expect(
            parseError("{1: 2}")
                == "decode: invalid JSON at line 1, column 2: expected a string key")
        #expect(
            parseError("{\"a\": 1 \"b\": 2}")
                == "decode: invalid JSON at line 1, column 9: expected ',' or '}'")
        #expect(parseError("tru") == "decode: invalid JSON at line 1, column 1: expected a value")
        #expect(parseError("nul1") == "decode: invalid JSON at line 1, column 1: expected a value")
        #expect(
            parseError("truex") == "decode: invalid JSON at line 1, column 5: expected end of input"
        )
        #expect(parseError("[1] // comment") != nil)
        #expect(
            parseError("\u{FEFF}{}") == "decode: invalid JSON at line 1, column 1: expected a value"
        )
        #expect(parseError("\u{A0}1") != nil)  // no-break space is not JSON whitespace
        // Keys and strings cut off at the end of the text, short and long.
        for length in 0..<40 {
            let cut = "{\"" + String(repeating: "k", count: length)
            #expect(parseError(cut)?.contains("unexpected end of input") == true, "\(cut)")
            #expect(parseError(cut + "\"")?.contains("unexpected end of input") == true, "\(cut)")
            #expect(
                parseError("[\"" + String(repeating: "s", count: length))?.contains(
                    "unexpected end of input") == true)
        }
    }

    @Test func errorPositions() {
        #expect(
            parseError("{\n  \"a\": 1,\n  \"b\": x\n}")
                == "decode: invalid JSON at line 3, column 8: expected a value")
        // Columns count Unicode scalars, not bytes.
        #expect(
            parseError("[\"é😀\", x]")
                == "decode: invalid JSON at line 1, column 8: expected a value")
        #expect(
            parseError("[\r\n1,\r\n")
                == "decode: invalid JSON at line 3, column 1: unexpected end of input, expected a value"
        )
        #expect(
            parseError("[\n\n  \"ok\",\n  tru]")
                == "decode: invalid JSON at line 4, column 3: expected a value")
    }

    @Test func operationNameAndCode() throws {
        do throws(FlowError) {
            _ = try JSONValue.parse("[", operation: "load")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidDocument)
            #expect(error.operation == "load")
            #expect(
                error.description
                    == "load: invalid JSON at line 1, column 2: unexpected end of input, expected a value"
            )
        }
    }

    @Test func depthLimit() {
        let limit = JSONValue.maximumNestingDepth
        #expect(limit == 512)
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(parsed(deepest) != nil)
        let tooDeep =
            String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        #expect(
            parseError(tooDeep)
                == "decode: invalid JSON at line 1, column 513: nesting deeper than 512 levels")
        let objects =
            String(repeating: "{\"a\":", count: limit + 1) + "1"
            + String(repeating: "}", count: limit + 1)
        #expect(parseError(objects)?.contains("nesting deeper than 512 levels") == true)
        let mixed =
            String(repeating: "{\"a\":[", count: limit / 2) + "1"
            + String(repeating: "]}", count: limit / 2)
        #expect(parsed(mixed) != nil)
        // Far too deep input fails cleanly instead of exhausting the stack.
        #expect(parseError(String(repeating: "[", count: 1_000_000)) != nil)
    }

    @Test func objectsKeepKeyOrder() throws {
        guard case .object(let o)? = parsed("{\"b\": 1, \"a\": 2, \"c\": 3, \"B\": 4}") else {
            Issue.record("not an object")
            return
        }
        #expect(o.keys == ["b", "a", "c", "B"])
        guard case .object(let d)? = parsed("{\"a\": 1, \"b\": 2, \"a\": 3}") else {
            Issue.record("not an object")
            return
        }
        #expect(d.keys == ["a", "b"])
        #expect(d["a"] == .number(3))
        #expect(d["b"] == .number(2))
        #expect(parsed("{\"b\":1,\"a\":2}") != parsed("{\"a\":2,\"b\":1}"))
    }

    /// Repeated keys are found however they are spelled: escaped, long, or canonically
    /// equivalent (as Swift strings compare), in small and large objects.
    @Test func repeatedKeysInEveryForm() {
        func keys(_ text: String) -> [String]? {
            guard case .object(let o)? = parsed(text) else { return nil }
            return o.keys
        }
        #expect(keys(#"{"a": 1, "\u0061": 2}"#) == ["a"])
        #expect(parsed(#"{"a": 1, "\u0061": 2}"#) == .object(JSONObject([("a", .number(2))])))
        let long = "a-key-longer-than-sixteen-bytes"
        #expect(keys("{\"\(long)\": 1, \"b\": 2, \"\(long)\": 3}") == [long, "b"])
        #expect(keys("{\"é\": 1, \"e\u{301}\": 2}") == ["é"])
        #expect(keys("{\"K\": 1, \"\u{212A}\": 2}") == ["K"])
        #expect(keys("{\"\u{212A}\": 1, \"K\": 2}") == ["\u{212A}"])
        #expect(keys(#"{"ab": 1, "ba": 2, "abc": 3}"#) == ["ab", "ba", "abc"])
        // Keys of every length around the 16 bytes read at once, with text after them.
        for length in 0...20 {
            let key = String(repeating: "q", count: length)
            let other = String(repeating: "q", count: length) + "x"
            let text =
                "{\"\(key)\": 1, \"\(other)\": 2, \"\(key)\": 3, \"pad\": \"\(String(repeating: " ", count: 40))\"}"
            guard case .object(let o)? = parsed(text) else {
                Issue.record("\(text)")
                continue
            }
            #expect(o.keys == [key, other, "pad"])
            #expect(o[key] == .number(3))
        }
        var text = "{"
        for k in 0..<40 { text += "\"k\(k)\": \(k), " }
        text += "\"k3\": 99, \"k39\": 100, \"new\": 0}"
        guard case .object(let big)? = parsed(text) else {
            Issue.record("not an object")
            return
        }
        #expect(big.count == 41)
        #expect(big["k3"] == .number(99))
        #expect(big["k39"] == .number(100))
        #expect(big.keys.last == "new")
        #expect(big.position(of: "k3") == 3)
    }

    @Test func objectAPI() {
        var o = JSONObject()
        for k in 0..<30 { o["k\(k)"] = .number(Double(k)) }
        #expect(o.count == 30)
        #expect(o["k20"] == .number(20))
        o["k5"] = nil
        #expect(o.count == 29)
        #expect(o["k5"] == nil)
        #expect(o.position(of: "k6") == 5)
        #expect(o["k29"] == .number(29))
        for k in 0..<25 { o["k\(k)"] = nil }
        #expect(o.keys == ["k25", "k26", "k27", "k28", "k29"])
        #expect(o.position(of: "k27") == 2)
        o["k26"] = .null
        #expect(o.value(at: 1) == .null)
        #expect(Array(o).map(\.key) == o.keys)
        var same = JSONObject(minimumCapacity: 8)
        for k in o.keys { same[k] = o[k] }
        #expect(same == o)
        #expect(same.hashValue == o.hashValue)
    }

    // MARK: - Writing

    @Test func formatNumber() {
        #expect(JSONWriter.formatNumber(100) == "100")
        #expect(JSONWriter.formatNumber(-2) == "-2")
        #expect(JSONWriter.formatNumber(0) == "0")
        #expect(JSONWriter.formatNumber(-0.0) == "-0")
        #expect(JSONWriter.formatNumber(0.1) == "0.1")
        #expect(JSONWriter.formatNumber(1.5) == "1.5")
        #expect(JSONWriter.formatNumber(0.1 + 0.2) == "0.30000000000000004")
        #expect(JSONWriter.formatNumber(1e300) == "1e+300")
        #expect(JSONWriter.formatNumber(1e21) == "1e+21")
        #expect(JSONWriter.formatNumber(1e-5) == "1e-05")
        #expect(JSONWriter.formatNumber(.leastNonzeroMagnitude) == "5e-324")
        #expect(JSONWriter.formatNumber(9_007_199_254_740_991) == "9007199254740991")
        #expect(JSONWriter.formatNumber(-9_007_199_254_740_991) == "-9007199254740991")
        #expect(JSONWriter.formatNumber(Double.nan) == "null")
        #expect(JSONWriter.formatNumber(Double.infinity) == "null")
        #expect(JSONWriter.formatNumber(-Double.infinity) == "null")
        // 2^53 and beyond: Swift's shortest text, which reads back exactly.
        for v in [
            9_007_199_254_740_992, 9_007_199_254_740_994, 1e16, 1e21, -1e300,
            .leastNonzeroMagnitude, -0.0,
        ] {
            let text = JSONWriter.formatNumber(v)
            guard case .number(let back)? = parsed(text) else {
                Issue.record("\(text) did not parse")
                continue
            }
            #expect(back.bitPattern == v.bitPattern, "\(text)")
        }
    }

    @Test func stringEscaping() {
        let s = "\"\\\n\r\t\u{8}\u{C}\u{0}\u{1}\u{1F}\u{7F}é😀/ end"
        #expect(
            JSONValue.string(s).serialized()
                == #""\"\\\n\r\t\b\f\u0000\u0001\u001f"# + "\u{7F}é😀/ end\"")
        #expect(parsed(JSONValue.string(s).serialized()) == .string(s))
    }

    /// Special characters at every position of strings of many lengths (the scans work on
    /// 8 bytes at a time).
    @Test func specialCharactersAtEveryPosition() {
        for length in 0..<24 {
            for position in 0..<max(length, 1) {
                for special in ["\"", "\\", "\n", "\u{1F}", "\u{0}", "é", "\u{7F}"] {
                    var characters = Array(repeating: "x", count: length)
                    if length > 0 { characters[position] = special }
                    let s = characters.joined()
                    let text = JSONValue.string(s).serialized()
                    #expect(parsed(text) == .string(s), "\(text)")
                    let key = JSONValue.object(JSONObject([(s, .number(1))])).serialized(
                        pretty: false)
                    #expect(parsed(key) == .object(JSONObject([(s, .number(1))])), "\(key)")
                }
            }
        }
    }

    @Test func byteCopyAndCompare() {
        let source: [UInt8] = (0..<48).map { UInt8($0 * 7 % 251) }
        for n in 0...40 {
            var target = [UInt8](repeating: 0xEE, count: 48)
            source.withUnsafeBufferPointer { s in
                target.withUnsafeMutableBufferPointer { t in
                    guard let from = s.baseAddress, let to = t.baseAddress else { return }
                    JSONByteBuffer.copy(to, from, n)
                }
            }
            #expect(Array(target[..<n]) == Array(source[..<n]), "copy \(n)")
            #expect(target[n...].allSatisfy { $0 == 0xEE }, "copy \(n) wrote past the end")
            for k in 0..<max(n, 1) {
                var other = Array(source[..<n])
                if n > 0 { other[k] ^= 0x20 }
                let same = source.withUnsafeBufferPointer { s in
                    other.withUnsafeBufferPointer { o in
                        guard let a = s.baseAddress, let b = o.baseAddress else { return n == 0 }
                        return JSONByteBuffer.equal(a, b, n)
                    }
                }
                #expect(same == (n == 0), "equal \(n) at \(k)")
            }
        }
    }

    @Test func compactOutput() {
        let value = JSONValue.object(
            JSONObject([
                ("b", .array([.number(1), .string("x"), .null])),
                ("a", .object(JSONObject([("z", .bool(true)), ("y", .array([]))]))),
                ("c", .object(JSONObject())),
            ]))
        #expect(
            value.serialized(pretty: false) == #"{"a":{"y":[],"z":true},"b":[1,"x",null],"c":{}}"#)
        #expect(
            value.serialized(pretty: false, sortedKeys: false)
                == #"{"b":[1,"x",null],"a":{"z":true,"y":[]},"c":{}}"#)
    }

    @Test func sortedKeysUseUTF8Bytes() {
        var object = JSONObject()
        for key in ["é", "b", "a", "B", "_", "aa", "", "z", "😀", "中"] { object[key] = .number(1) }
        let text = JSONValue.object(object).serialized(pretty: false)
        #expect(text == #"{"":1,"B":1,"_":1,"a":1,"aa":1,"b":1,"z":1,"é":1,"中":1,"😀":1}"#)
    }

    @Test func prettyLayout() {
        let value = JSONValue.object(
            JSONObject([
                ("name", .string("flow")),
                ("empty", .object(JSONObject())),
                ("list", .array([])),
                ("point", .array([.number(1.5), .number(-2)])),
                (
                    "mixed",
                    .array([
                        .number(1), .array([.number(2), .number(3)]),
                        .object(JSONObject([("k", .null)])),
                    ])
                ),
                ("nested", .object(JSONObject([("deep", .array([.object(JSONObject())]))]))),
            ]))
        let expected = """
            {
              "empty": {},
              "list": [],
              "mixed": [
                1,
                [2, 3],
                {
                  "k": null
                }
              ],
              "name": "flow",
              "nested": {
                "deep": [
                  {}
                ]
              },
              "point": [1.5, -2]
            }
            """
        #expect(value.serialized() == expected)
        #expect(!value.serialized().contains(" \n"))
        #expect(JSONValue.array([]).serialized() == "[]")
        #expect(JSONValue.number(3).serialized() == "3")
    }

    /// A container after scalars turns an array written on one line into one element per
    /// line, with commas inside strings left alone.
    @Test func streamingArrayBreaksWhenAContainerFollows() {
        var w = JSONWriter()
        w.beginArray()
        w.number(1)
        w.string("a, b")
        w.string("q\\\", r")
        w.beginObject()
        w.key("x")
        w.bool(false)
        w.endObject()
        w.null()
        w.endArray()
        let expected = """
            [
              1,
              "a, b",
              "q\\\\\\", r",
              {
                "x": false
              },
              null
            ]
            """
        #expect(w.text == expected)
        #expect(parsed(w.text) != nil)
    }

    @Test func streamingWriter() {
        var w = JSONWriter(pretty: false)
        w.beginObject()
        w.key("a\"b")
        w.number(0.5)
        w.key("n")
        w.number(12)
        w.key("v")
        w.value(.array([.bool(true)]))
        w.endObject()
        #expect(w.text == #"{"a\"b":0.5,"n":12,"v":[true]}"#)
        w.appendNewline()
        #expect(w.bytes.last == 0x0A)
    }

    @Test func writerMisuseDoesNotTrap() {
        var w = JSONWriter()
        w.endObject()
        w.endArray()
        w.key("stray")
        w.number(1)
        w.beginArray()
        w.endObject()
        w.endArray()
        #expect(!w.bytes.isEmpty)
    }

    @Test func nonFiniteNumbersAreWrittenAsNull() {
        let value = JSONValue.array([.number(.nan), .number(.infinity), .number(-.infinity)])
        #expect(value.serialized(pretty: false) == "[null,null,null]")
    }

    @Test func deepValuesAreWrittenWithoutRecursion() {
        var value = JSONValue.number(1)
        for _ in 0..<10_000 { value = .array([value]) }
        let text = value.serialized(pretty: false)
        #expect(text.utf8.count == 20_001)
        // Release iteratively too: the synthesized destructor would recurse.
        while case .array(let inner) = value, let first = inner.first { value = first }
    }

    @Test(arguments: [1, 2, 3, 4])
    func randomRoundTrip(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<300 {
            let value = rng.jsonValue()
            for pretty in [true, false] {
                let ordered = value.serialized(pretty: pretty, sortedKeys: false)
                let back = parsed(ordered)
                #expect(back == value, "\(ordered)")
                #expect(back?.serialized(pretty: pretty, sortedKeys: false) == ordered)
                let sorted = value.serialized(pretty: pretty, sortedKeys: true)
                #expect(parsed(sorted)?.serialized(pretty: pretty, sortedKeys: false) == sorted)
            }
        }
    }
}
