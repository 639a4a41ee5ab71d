// `flowrepl render`: DOT or Mermaid in, a laid-out picture out, with dot's command line, so
// a pipeline or a documentation build can swap dot for it (docs/formats.md, "A stand-in
// for dot").
import CLuaShims
import FlowCore
import FlowFormats
import FlowRender
import Glibc

enum RenderCommand {
    static let name = "flowrepl render"

    /// Runs `flowrepl render ARGS`; returns the exit status (1 when any input failed).
    static func main(_ args: [String]) -> Int32 {
        let options: RenderOptions
        do {
            options = try RenderOptions(args)
        } catch {
            complain("\(error.message)\n\(RenderOptions.usage)")
            return 2
        }
        if options.help {
            write(Array((RenderOptions.usage + "\n").utf8), to: flua_stdout())
            return 0
        }
        var status: Int32 = 0
        var sink: UnsafeMutablePointer<FILE>? = nil
        if let path = options.outputFile {
            guard let f = fopen(path, "wb") else {
                complain("cannot write '\(path)': \(String(cString: strerror(errno)))")
                return 1
            }
            sink = f
        }
        defer { if let sink { fclose(sink) } }
        for input in options.inputs.isEmpty ? [nil] : options.inputs.map(Optional.some) {
            let label = input ?? "<stdin>"
            do throws(RenderError) {
                let bytes = try render(input, options)
                if options.outputBeside {
                    let path = (input ?? "noname.gv") + "." + options.output.rawValue
                    guard let f = fopen(path, "wb") else {
                        throw RenderError("cannot write '\(path)': \(String(cString: strerror(errno)))")
                    }
                    write(bytes, to: f)
                    fclose(f)
                } else {
                    write(bytes, to: sink ?? flua_stdout())
                }
            } catch {
                complain("\(label): \(error.message)")
                status = 1
            }
        }
        return status
    }

    /// One input (nil: standard input) read, laid out and drawn in the output format.
    static func render(_ input: String?, _ options: RenderOptions) throws(RenderError) -> [UInt8] {
        let label = input ?? "<stdin>"
        guard let bytes = read(input) else {
            throw RenderError("cannot read: \(String(cString: strerror(errno)))")
        }
        do {
            var text = try DiagramText.string(bytes, operation: "render", what: label)
            let format = input.flatMap { DiagramFormat(fileName: $0) } ?? RenderInput.sniff(text)
            if options.hasAttributes {
                guard format == .dot, let given = RenderInput.withAttributes(text, options) else {
                    throw RenderError("-G, -N and -E apply to DOT input, and this is \(format == .dot ? "not a DOT graph" : format.rawValue)")
                }
                text = given
            }
            let store = FlowStore<JSONValue>()
            let warnings = try store.load(text, format: format, operation: "render")
            var picture = SVGOptions()
            picture.handles = .none
            if !options.quiet {
                for w in warnings { complain("\(label): warning: \(w)") }
            }
            switch options.output {
            case .dot: return Array(try store.text(.dot).utf8)
            case .svg: return Array(try renderSVG(store, options: picture).utf8)
            case .png, .pdf: return try raster(store, picture, options.output)
            }
        } catch let error as RenderError {
            throw error
        } catch let error as FlowError {
            throw RenderError(error.operation == "render" ? error.message : error.description)
        } catch {
            throw RenderError("\(error)")
        }
    }

    /// A PNG or PDF through rsvg-convert, by way of a temporary file.
    static func raster(_ store: FlowStore<JSONValue>, _ picture: SVGOptions, _ output: RenderOptions.Output) throws -> [UInt8] {
        let dir = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(dir)/flowrepl-render-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw RenderError("cannot make a temporary file: \(String(cString: strerror(errno)))") }
        close(fd)
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(path) }
        if output == .png {
            try renderPNG(store, options: picture, to: path)
        } else {
            try renderPDF(store, options: picture, to: path)
        }
        guard let bytes = read(path) else { throw RenderError("cannot read the \(output.rawValue) back") }
        return bytes
    }

    /// The bytes of a file, or of standard input for nil.
    static func read(_ path: String?) -> [UInt8]? {
        guard let path else { return readAll(flua_stdin()) }
        return FixtureRunner.readBytes(path)
    }

    static func write(_ bytes: [UInt8], to f: UnsafeMutablePointer<FILE>) {
        _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, f) }
        fflush(f)
    }

    static func complain(_ message: String) {
        let line = "\(name): \(message)\n"
        write(Array(line.utf8), to: flua_stderr())
    }
}
