import Testing

@testable import FlowLua

/// Errors raised by bound functions come out in Lua's exact format.
@Suite struct ArgumentErrorTests {
    @Test func typeErrorInMethodCallIsRenumbered() {
        let t = TestHost()
        t.eval("o = toy.new()")
        #expect(t.errorOf("o:move('a', 'x', 1)") == "chunk:1: bad argument #2 to 'move' (number expected, got string)")
        #expect(t.errorOf("o:move('a')") == "chunk:1: bad argument #2 to 'move' (number expected, got no value)")
        #expect(t.errorOf("o:move(nil, 1, 2)") == "chunk:1: bad argument #1 to 'move' (string expected, got nil)")
    }

    @Test func typeErrorInFunctionCallKeepsIndex() {
        let t = TestHost()
        t.eval("o = toy.new()")
        #expect(t.errorOf("toy.move(o, 'a', 'x', 1)") == "chunk:1: bad argument #3 to 'move' (number expected, got string)")
        #expect(t.errorOf("toy.move({}, 'a', 1, 1)") == "chunk:1: bad argument #1 to 'move' (Toy expected, got table)")
    }

    @Test func badSelf() {
        let t = TestHost()
        t.eval("o = toy.new(); fake = { move = o.move }")
        #expect(t.errorOf("fake:move('a', 1, 2)") == "chunk:1: calling 'move' on bad self (Toy expected, got table)")
        #expect(t.errorOf("o.move(io.stdout, 'a', 1, 2)") == "chunk:1: bad argument #1 to 'move' (Toy expected, got FILE*)")
    }

    @Test func flowErrorsAreRaisedAsTheirDescription() {
        let t = TestHost()
        t.eval("o = toy.new()")
        #expect(t.errorOf("o:move('zz', 1, 2)") == "chunk:1: move: no node with id 'zz'")
        #expect(t.errorOf("o:setPath('curvy')")
            == "chunk:1: setPath: invalid path type 'curvy' (expected one of: bezier, straight, smoothStep, simpleBezier, orthogonal)")
        #expect(t.errorOf("o:setPath(3)") == "chunk:1: bad argument #1 to 'setPath' (string expected, got number)")
        t.eval("o:setPath('smoothStep')")
        #expect(t.eval("return o.path") == "smoothStep")
    }

    @Test func idsAndIntegers() {
        let t = TestHost()
        t.eval("o = toy.new()")
        #expect(t.eval("return o:echoID(12, 3)") == "12\t3")
        #expect(t.eval("return o:echoID(1.5, 3.0)") == "1.5\t3")
        #expect(t.eval("return o:echoID('a', '7')") == "a\t7")
        #expect(t.errorOf("o:echoID('a', 1.5)") == "chunk:1: bad argument #2 to 'echoID' (number has no integer representation)")
        #expect(t.errorOf("o:echoID({}, 1)") == "chunk:1: bad argument #1 to 'echoID' (string expected, got table)")
    }

    @Test func pointsAndSizes() {
        let t = TestHost()
        t.eval("o = toy.new()")
        t.eval("o:move('a', 10, 5)")
        #expect(t.eval("return o.value") == "15")
        t.eval("o:move('b', {x = 1, y = 2.5})")
        #expect(t.eval("return o.value") == "3.5")
        #expect(t.errorOf("o:move('a', {x = 1})") == "chunk:1: bad argument #2 to 'move' (field 'y': number expected, got nil)")
        #expect(t.eval("return o:resize(2, 3), o:resize({width = 2, height = 3}, 10)") == "6\t60")
        #expect(t.errorOf("o:resize({width = 2, height = 3}, 'big')") == "chunk:1: bad argument #2 to 'resize' (number expected, got string)")
    }

    @Test func tableFields() {
        let t = TestHost()
        t.eval("o = toy.new()")
        #expect(t.eval("return o:config{width = 3, points = {{x = 1}, {x = 2}}}") == "2")
        #expect(t.eval("return o.value") == "3")
        #expect(t.errorOf("o:config{widht = 3}") == "chunk:1: bad argument #1 to 'config' (unknown field 'widht'; did you mean 'width'?)")
        #expect(t.errorOf("o:config{width = 'x'}") == "chunk:1: bad argument #1 to 'config' (field 'width': number expected, got string)")
        #expect(t.errorOf("o:config{style = {lineWidth = true}}")
            == "chunk:1: bad argument #1 to 'config' (field 'style.lineWidth': number expected, got boolean)")
        #expect(t.errorOf("o:config{points = {{x = 1}, 5}}")
            == "chunk:1: bad argument #1 to 'config' (field 'points[2]': table expected, got number)")
        #expect(t.errorOf("o:config{[1] = 2}") == "chunk:1: bad argument #1 to 'config' (unexpected non-string key)")
        #expect(t.errorOf("o:config(5)") == "chunk:1: bad argument #1 to 'config' (table expected, got number)")
    }

    @Test func valueOnStackIsRaisedUnchanged() {
        let t = TestHost()
        t.eval("o = toy.new()")
        #expect(t.eval("local ok, e = pcall(o.fail, o, 'table') return type(e), e.code") == "table\tpayload")
        #expect(t.errorOf("o:fail('arg')") == "chunk:1: bad argument #1 to 'fail' (bad kind)")
        #expect(t.errorOf("o:fail('type')") == "chunk:1: bad argument #1 to 'fail' (number expected, got string)")
    }

    @Test func uncaughtErrorsHaveATraceback() {
        let t = TestHost()
        t.eval("o = toy.new()")
        #expect(t.host.run(string: "o:move('zz', 1, 2)", chunkName: "=chunk") == nil)
        let message = t.host.lastError ?? ""
        #expect(message.hasPrefix("chunk:1: move: no node with id 'zz'\nstack traceback:\n"))
        #expect(message.contains("in method 'move'"))
        #expect(t.errors == [message])
    }
}
