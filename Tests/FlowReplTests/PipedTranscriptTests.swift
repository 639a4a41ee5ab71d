import Foundation
import Testing

/// flowrepl with stdin piped: whole transcripts (stdout, stderr, exit status) compared.
@Suite struct PipedTranscriptTests {
    init() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ReplProcess.binary),
                     "flowrepl is not built at \(ReplProcess.binary) (run swift build)")
    }

    @Test func expressionsStatementsAndContinuation() throws {
        let out = try ReplProcess.run(stdin: """
            1 + 1
            x = 10
            = x * 3
            x, "two", nil, 2.0, 1/3
            function double(n)
              return n * 2
            end
            double(21)
            _ + 1
            t = {b = 1, a = {1, 2, 3}, ["k k"] = true}
            t
            local c = {} c.self = c return c
            if true then
              print("inside")
            end
            print("a", 1)
            help("flow.version")

            """)
        #expect(out == ReplProcess.Output(stdout: """
            2
            30
            10\ttwo\tnil\t2.0\t0.33333333333333
            42
            43
            {a = {1, 2, 3}, b = 1, ["k k"] = true}
            {self = <cycle>}
            inside
            a\t1
            flow.version  -> string
            The semantic version of the package, e.g. "0.1.0".

            """, stderr: "", status: 0))
    }

    @Test func errorsPrintMessageAndTracebackAndTheSessionContinues() throws {
        let out = try ReplProcess.run(stdin: """
            error("boom")
            print("after")
            1 +
            = nosuchfunction()
            local t = setmetatable({}, {__tostring = function() return "custom error" end}) error(t)
            error({})
            x = {
            1,
            """)
        #expect(out.status == 0)
        #expect(out.stdout == "after\n")
        #expect(out.stderr == """
            stdin:1: boom
            stack traceback:
            \t[C]: in function 'error'
            \tstdin:1: in main chunk
            stdin:1: unexpected symbol near '1'
            stdin:1: attempt to call a nil value (global 'nosuchfunction')
            stack traceback:
            \tstdin:1: in main chunk
            custom error
            (error object is a table value)
            stack traceback:
            \t[C]: in function 'error'
            \tstdin:1: in main chunk
            stdin:2: unexpected symbol near <eof>

            """)
    }

    @Test func noPromptsInPipedMode() throws {
        let out = try ReplProcess.run(stdin: "_PROMPT = 'custom> '\n_PROMPT2 = '..'\nx = {\n1}\n#x\n")
        #expect(out == ReplProcess.Output(stdout: "1\n", stderr: "", status: 0))
    }

    @Test func globalsAtStart() throws {
        let out = try ReplProcess.run(stdin: "flow.version\nrequire('flow') == flow\ntype(help)\nflow.type(flow.null)\nflow.null\n")
        #expect(out.stdout == "0.1.0\ntrue\nfunction\nnil\nflow.null\n")
    }
}
