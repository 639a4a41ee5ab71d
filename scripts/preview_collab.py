"""Several people in one page (issue 40, part 3): the tests scripts/preview-tests runs for
presence and several browsers editing one store (docs/preview.md, "Several people, one
page"), and, with FLOW_TEST_POSTGRES_URL set, two flowrepl --serve processes sharing one
PostgreSQL diagram (docs/collaboration.md).

`run(h, binary, browser, scratch, screenshot)`: h is the preview-tests module (its test,
wait_until, Repl, free_port); `screenshot`, a PNG file to save Ana's page to once both
pages are connected and a node was dragged (docs/images/preview-collab.png), or None.
"""
import json
import os
import subprocess
import time


def percentile(samples, p):
    s = sorted(samples)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


class Piped:
    """flowrepl --serve with standard input a pipe and its output in a file."""

    def __init__(self, h, binary, scratch, name, extra=()):
        self.h = h
        self.port = h.free_port()
        self.path = os.path.join(scratch, f"{name}.out")
        self.out = open(self.path, "w")
        self.p = subprocess.Popen([binary, "--serve", f"127.0.0.1:{self.port}", *extra], stdin=subprocess.PIPE,
                                  stdout=self.out, stderr=subprocess.STDOUT)
        h.wait_until(f"{name}'s server", lambda: "preview:" in self.log())

    def log(self):
        with open(self.path) as f:
            return f.read()

    def line(self, text):
        self.p.stdin.write((text + "\n").encode())
        self.p.stdin.flush()

    def evaluate(self, expression):
        marker = f"@@{time.monotonic_ns()}@@"
        self.line(f'print("{marker}" .. tostring({expression}) .. "{marker}")')
        text = self.h.wait_until("the answer", lambda: self.log().count(marker) >= 2 and self.log())
        return text.rsplit(marker, 2)[-2]

    def close(self):
        try:
            self.p.stdin.close()
            self.p.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.p.kill()
            self.p.wait(timeout=10)
        self.out.close()


def sql(url, statement):
    """Runs one SQL statement on the database of `url` (psql)."""
    subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", url, "-c", statement], check=True, timeout=60,
                   capture_output=True)


def people(page):
    """What the page's list of who is connected says, one string a line."""
    return page.js("Array.from(document.querySelectorAll('#peopleList li')).map(l => l.textContent)")


def position(repl, node):
    """The node's position in the store, (x, y)."""
    text = repl.evaluate(f'store:node("{node}").position.x .. "," .. store:node("{node}").position.y')
    return tuple(float(v) for v in text.split(","))


def near(repl, node, x=None, y=None):
    """Whether the node is within 0.5 of x and/or y (the page's points are canvas points
    computed from the screen: a drag straight across may move a node by 0.001 down)."""
    px, py = position(repl, node)
    return (x is None or abs(px - x) < 0.5) and (y is None or abs(py - y) < 0.5)


def drag(page, node, dx, dy):
    x, y = page.center(node)
    page.mouse("mousePressed", x, y)
    for k in range(1, 6):
        page.mouse("mouseMoved", x + dx * k / 5, y + dy * k / 5)
        time.sleep(0.02)
    page.mouse("mouseReleased", x + dx, y + dy)


COUNT_SENDS = ("if (!window.sentCount) { window.sentCount = 0; const s0 = send; "
               "send = (m) => { window.sentCount += 1; s0(m); }; }")


def settled(page):
    """Whether every request the page sent (since COUNT_SENDS) has been answered."""
    return page.js("window.preview.replies + window.preview.errors.length - window.answeredBefore >= window.sentCount")


def count_sends(page):
    page.js(COUNT_SENDS + " window.answeredBefore = window.preview.replies + window.preview.errors.length - window.sentCount;")


def run(h, binary, browser, scratch, screenshot=None):
    repl = Piped(h, binary, scratch, "collab")
    ana = ben = None
    state = {}
    try:
        repl.line('store:addNode{ id = "a", x = 0, y = 0, data = { label = "Alpha" } }')
        repl.line('store:addNode{ id = "b", x = 300, y = 0, data = { label = "Beta" } }')
        repl.line('store:connect("a", "b")')
        h.wait_until("the edge", lambda: "edge+" in repl.log())

        @h.test("collab: two pages show who is connected, by name and store")
        def _():
            nonlocal ana, ben
            ana = browser.open(f"http://127.0.0.1:{repl.port}/?name=Ana%20%3Cb%3E")
            h.wait_until("a frame", lambda: ana.js("!!window.preview && window.preview.frames >= 1"))
            ben = browser.open(f"http://127.0.0.1:{repl.port}/")  # connects second: viewer 2
            for page in (ana, ben):
                h.wait_until("a frame", lambda: page.js("!!window.preview && window.preview.frames >= 1"))
                h.wait_until("two connected", lambda: len(people(page)) == 2)
            assert people(ana) == ["Ana b (you) · store", "viewer 2 · store"], people(ana)
            assert people(ben) == ["Ana b · store", "viewer 2 (you) · store"], people(ben)
            assert ana.js("document.getElementById('peopleCount').textContent") == "2 connected"
            assert ana.js("document.querySelector('#peopleList b')") is None  # text, never markup

        @h.test("collab: a drag in one page moves the node in the other, one undo step, events printed")
        def _():
            before = ben.center("node-b")
            drag(ana, "node-b", 100, 60)
            h.wait_until("the event line", lambda: "node~ b position" in repl.log())
            h.wait_until("b moved in Ben's page", lambda: ben.center("node-b")[0] > before[0] + 40
                         and not ben.js("window.preview.animating"))
            if screenshot:
                ana.call("Page.bringToFront")
                ana.js("document.getElementById('fit').click()")
                time.sleep(0.3)
                ana.screenshot(screenshot)

        @h.test("collab: a node added in one page (double click) appears in the other")
        def _():
            svg = ben.js("(() => { const r = document.querySelector('#picture svg').getBoundingClientRect(); "
                         "return [r.left, r.top, r.width, r.height]; })()")
            x, y = svg[0] + svg[2] * 0.5, svg[1] + svg[3] + 60  # below the picture: background
            ben.call("Input.dispatchMouseEvent", type="mousePressed", x=x, y=y, button="left", buttons=1, clickCount=1)
            ben.call("Input.dispatchMouseEvent", type="mouseReleased", x=x, y=y, button="left", buttons=0, clickCount=1)
            ben.call("Input.dispatchMouseEvent", type="mousePressed", x=x, y=y, button="left", buttons=1, clickCount=2)
            ben.call("Input.dispatchMouseEvent", type="mouseReleased", x=x, y=y, button="left", buttons=0, clickCount=2)
            h.wait_until("the event line", lambda: "node+ n1" in repl.log())
            h.wait_until("n1 in Ana's page", lambda: ana.js('!!document.getElementById("node-n1")'))

        @h.test("collab: Delete in one page deletes the selection in both")
        def _():
            x, y = ana.center("node-n1")
            ana.mouse("mousePressed", x, y)
            ana.mouse("mouseReleased", x, y)
            h.wait_until("n1 selected", lambda: "node* n1 selected" in repl.log())
            ana.call("Input.dispatchKeyEvent", type="keyDown", key="Delete", code="Delete", windowsVirtualKeyCode=46)
            ana.call("Input.dispatchKeyEvent", type="keyUp", key="Delete", code="Delete", windowsVirtualKeyCode=46)
            h.wait_until("the event line", lambda: "node- n1" in repl.log())
            h.wait_until("n1 gone from Ben's page", lambda: not ben.js('!!document.getElementById("node-n1")'))

        @h.test("collab: concurrent drags of one node: the later press wins, nothing is corrupted")
        def _():
            # Ana presses on a and moves; Ben presses on a (Ana's drag ends there, kept) and moves
            ax, ay = ana.center("node-a")
            bx, by = ben.center("node-a")
            for page in (ana, ben):
                count_sends(page)
            # a tab in the background gets no animation frames (the page sends moves at
            # most once a frame): the one whose user acts is in front, as on two screens
            ana.call("Page.bringToFront")
            ana.mouse("mousePressed", ax, ay)
            for k in range(1, 4):
                ana.mouse("mouseMoved", ax + 20 * k, ay)
                time.sleep(0.03)
            h.wait_until("Ana's moves", lambda: not near(repl, "a", x=0))
            ben.call("Page.bringToFront")
            ben.mouse("mousePressed", bx, by)
            for k in range(1, 4):
                ben.mouse("mouseMoved", bx, by + 25 * k)
                ana.mouse("mouseMoved", ax + 60 + 20 * k, ay)  # ignored now
                time.sleep(0.03)
            ana.mouse("mouseReleased", ax + 120, ay)
            ben.mouse("mouseReleased", bx, by + 75)
            h.wait_until("every request answered", lambda: settled(ana) and settled(ben))
            x, y = position(repl, "a")
            # Ana's drag ended at her last point (60 px to the right), Ben's moved it down 75 px
            # more (canvas units: px divided by each page's zoom)
            za, zb = ana.js("pan.zoom"), ben.js("pan.zoom")
            assert abs(x - 60 / za) < 1.5 and abs(y - 75 / zb) < 1.5, (x, y, za, zb)
            # one undo step each: Ben's drag, Ana's drag, the delete, the add, Ana's drag of b
            repl.line("store:undo()")
            h.wait_until("a back to Ana's place", lambda: near(repl, "a", y=0))
            assert near(repl, "a", x=x)
            repl.line("store:undo()")
            h.wait_until("a back home", lambda: near(repl, "a", x=0))
            repl.line("store:undo()")  # the delete
            h.wait_until("n1 back", lambda: ben.js('!!document.getElementById("node-n1")'))
            repl.line("store:undo()")  # the add
            h.wait_until("n1 gone again", lambda: not ben.js('!!document.getElementById("node-n1")'))
            repl.line("store:undo()")  # Ana's drag of b
            h.wait_until("b back", lambda: near(repl, "b", x=300, y=0))
            assert "error" not in repl.log().lower(), repl.log()[-2000:]

        @h.test("collab: change-to-other-page latency, 50 additions and 50 drags")
        def _():
            ben.js("""window.seenAt = {}; new MutationObserver(() => { const t = Date.now();
                for (const g of document.querySelectorAll('g[id^="node-"]')) if (!(g.id in window.seenAt)) window.seenAt[g.id] = t;
              }).observe(document.getElementById('picture'), { childList: true, subtree: true });
              window.frameAt = []; { const show = showFrame; showFrame = (m) => { window.frameAt.push(Date.now()); show(m); }; }""")
            adds = []
            before = int(repl.evaluate("store.nodeCount"))
            for i in range(50):
                sent = ana.js(f'(() => {{ const t = Date.now(); '
                              f'send({{ type: "add", x: {(i % 10) * 180}, y: {300 + (i // 10) * 90} }}); return t; }})()')
                node = f"node-n{i + 1}"
                seen = h.wait_until(node, lambda: ben.js(f"window.seenAt[{json.dumps(node)}] || 0"), interval=0.005)
                adds.append(seen - sent)
            moves = []
            cx, cy = 0, 300  # n1's centre: each drag presses there and moves it 40 to a side
            for i in range(50):
                frames = ben.js("window.frameAt.length")
                dx = 40 if i % 2 == 0 else -40
                sent = ana.js(f'(() => {{ const t = Date.now(); '
                              f'send({{ type: "pointer", phase: "down", x: {cx}, y: {cy} }}); '
                              f'send({{ type: "pointer", phase: "move", x: {cx + dx}, y: {cy} }}); '
                              f'send({{ type: "pointer", phase: "up", x: {cx + dx}, y: {cy} }}); return t; }})()')
                cx += dx
                h.wait_until("Ben's frame", lambda: ben.js("window.frameAt.length") > frames, interval=0.005)
                moves.append(ben.js(f"window.frameAt[{frames}]") - sent)
            assert abs(float(repl.evaluate('store:node("n1").position.x')) + 75 - cx) < 1.5
            state["latency"] = (adds, moves)
            assert min(adds) >= 0 and min(moves) >= 0, state["latency"]  # a change seen before it was sent: a bad clock
            print(f"      change to the other page (loopback), 50 additions: p50 {percentile(adds, 50):.1f} ms, "
                  f"p95 {percentile(adds, 95):.1f} ms, max {max(adds):.1f} ms")
            print(f"      change to the other page (loopback), 50 drags: p50 {percentile(moves, 50):.1f} ms, "
                  f"p95 {percentile(moves, 95):.1f} ms, max {max(moves):.1f} ms")
            assert percentile(adds, 95) <= 100 and percentile(moves, 95) <= 100, state["latency"]
            assert int(repl.evaluate("store.nodeCount")) == before + 50

        @h.test("collab: a page that leaves drops from the other's list; its pressed gesture is cancelled")
        def _():
            # Ana's tab was in the background while 50 nodes came in: its picture glides to
            # the new frame once it is in front, so press where node b is after the glide
            ana.call("Page.bringToFront")
            h.wait_until("Ana's page in front and still",
                         lambda: ana.js("document.visibilityState === 'visible' && !window.preview.animating"))
            x, y = ana.center("node-b")
            ana.mouse("mousePressed", x, y)
            for k in range(1, 6):
                ana.mouse("mouseMoved", x + 10 * k, y + 10 * k)
                time.sleep(0.02)
            h.wait_until("b dragged", lambda: not near(repl, "b", y=0))
            ana.close()
            h.wait_until("one connected", lambda: people(ben) == ["viewer 2 (you) · store"])
            h.wait_until("b back", lambda: near(repl, "b", y=0))
            assert ben.js("window.preview.presence.length") == 1
    finally:
        for page in (ana, ben):
            try:
                if page:
                    page.close()
            except Exception:
                pass
        repl.close()
    run_shared_workspace(h, binary, browser, scratch)


def run_shared_workspace(h, binary, browser, scratch):
    url = os.environ.get("FLOW_TEST_POSTGRES_URL")
    if not url:
        print("skip  collab: two server processes on one PostgreSQL diagram (FLOW_TEST_POSTGRES_URL is not set)")
        return
    name = f"collab{os.getpid()}"
    one = Piped(h, binary, scratch, "shared1", ["--workspace", url, name])
    two = term = None
    page = None
    try:
        h.wait_until("the first session", lambda: one.evaluate("store.nodeCount") == "0")
        two = Piped(h, binary, scratch, "shared2", ["--workspace", url, name])
        # a third at a terminal (readline's wait), idle at its prompt
        term_port = h.free_port()
        term = h.Repl(binary, ["--serve", f"127.0.0.1:{term_port}", "--workspace", url, name], scratch)
        h.wait_until("the terminal's prompt", term.at_prompt)

        @h.test("collab: a page of one server process redraws on what another process commits (no key pressed)")
        def _():
            nonlocal page
            page = browser.open(f"http://127.0.0.1:{two.port}/")
            h.wait_until("a frame", lambda: page.js("!!window.preview && window.preview.frames >= 1"))
            page.js("""window.seenAt = {}; new MutationObserver(() => { const t = Date.now();
                for (const g of document.querySelectorAll('g[id^="node-"]')) if (!(g.id in window.seenAt)) window.seenAt[g.id] = t;
              }).observe(document.getElementById('picture'), { childList: true, subtree: true });""")
            samples = []
            for i in range(20):
                sent = time.time() * 1000
                one.line(f'store:addNode{{ id = "s{i}", x = {(i % 5) * 180}, y = {(i // 5) * 90} }}')
                seen = h.wait_until(f"s{i} in the other process's page",
                                    lambda: page.js(f"window.seenAt['node-s{i}'] || 0"), interval=0.005)
                samples.append(seen - sent)
            h.wait_until("the events in the other process", lambda: "node+ s19" in two.log())
            tpage = browser.open(f"http://127.0.0.1:{term_port}/")
            try:
                h.wait_until("the terminal's page", lambda: tpage.js("!!window.preview && window.preview.frames >= 1"))
                h.wait_until("s19 there", lambda: tpage.js("!!document.getElementById('node-s19')"))
                one.line('store:addNode{ id = "t1", x = 0, y = 500 }')
                h.wait_until("t1 in the terminal session's page", lambda: tpage.js("!!document.getElementById('node-t1')"))
                term.wait_for("node+ t1")
            finally:
                tpage.close()
            print(f"      line in one process to the page of another (PostgreSQL, loopback), 20 additions: "
                  f"p50 {percentile(samples, 50):.0f} ms, p95 {percentile(samples, 95):.0f} ms, max {max(samples):.0f} ms")
            # and back: a drag in that page reaches the first process
            x, y = page.center("node-s0")
            drag(page, "node-s0", 80, 0)
            h.wait_until("the move in the first process", lambda: not near(one, "s0", x=0))
            assert one.evaluate("store:export()") == two.evaluate("store:export()")

        @h.test("collab: a terminal watches every shared workspace it opened: each page redraws, each prints (no key pressed)")
        def _():
            # a second workspace in another database: its commits are announced on that
            # database's connection only (NOTIFY is per database)
            other_db = f"{name}_two"
            url2 = url.rsplit("/", 1)[0] + "/" + other_db
            sql(url, f"CREATE DATABASE {other_db}")
            plain = None
            try:
                term.type_line(f'ws2 = flow.workspace("{url2}")')
                term.type_line(f'other = ws2:create("{name}")')
                term.type_line("preview(other)")  # prints the address of a page on it
                view = [l for l in term.text().splitlines() if l.startswith("preview: http") and "view=" in l][-1].rsplit("view=", 1)[1]
                # and a terminal without the live preview, on both workspaces
                plain = h.Repl(binary, ["--workspace", url, name], scratch)
                h.wait_until("the plain terminal's prompt", plain.at_prompt)
                plain.type_line(f'ws2 = flow.workspace("{url2}")')
                plain.type_line(f'other = ws2:open("{name}")')
                one.line(f'w2 = flow.workspace("{url2}"); o2 = w2:open("{name}")')
                h.wait_until("the first process on the second database", lambda: one.evaluate("o2.nodeCount") == "0")
                tpage = browser.open(f"http://127.0.0.1:{term_port}/?view={view}")
                try:
                    h.wait_until("the page of the second workspace", lambda: tpage.js("!!window.preview && window.preview.frames >= 1"))
                    for p in (term, plain):
                        p.tmux("clear-history", "-t", "main")
                    one.line('o2:addNode{ id = "v1", x = 0, y = 0 }')
                    h.wait_until("v1 in the page of the terminal's second workspace",
                                 lambda: tpage.js("!!document.getElementById('node-v1')"))
                    for p in (term, plain):
                        p.wait_for("node+ v1")
                        h.wait_until("the prompt drawn again", p.at_prompt)
                    # the first workspace is still watched too
                    one.line('store:addNode{ id = "v2", x = 0, y = 800 }')
                    for p in (term, plain):
                        p.wait_for("node+ v2")
                        h.wait_until("the prompt drawn again", p.at_prompt)
                    assert term.evaluate("other:export()") == one.evaluate("o2:export()")
                finally:
                    tpage.close()
            finally:
                for p in (term, plain):
                    if p:
                        p.type_line("ws2:close()")
                one.line("w2:close()")
                h.wait_until("the first process's close", lambda: one.evaluate("tostring(w2)").endswith("(closed)"))
                if plain:
                    plain.close()
                sql(url, f"DROP DATABASE {other_db} WITH (FORCE)")

        @h.test("collab: a page edit the database refuses (a conflict) shows the error in the page; the store is unchanged")
        def _():
            one.line('store:addNode{ id = "c1", x = 0, y = 900 }')
            one.line('store:moveNode("c1", 50, 900)')
            one.line('store:moveNode("c1", 0, 900)')
            h.wait_until("c1 moved back in the second process", lambda: two.log().count("node~ c1") >= 2)
            assert near(two, "c1", x=0, y=900)
            versions = int(two.evaluate(f'#workspace:versions("{name}")'))
            w, hgt = (float(v) for v in two.evaluate('store:node("c1").size.width .. "," .. store:node("c1").size.height').split(","))
            cx, cy = w / 2, 900 + hgt / 2
            # the page in front (a tab behind gets no animation frames), its glide ended, c1
            # drawn back at x 0 (where t1 is)
            page.call("Page.bringToFront")
            h.wait_until("c1 drawn back at 0 and still",
                         lambda: page.js("!!document.getElementById('node-c1') && !window.preview.animating")
                         and abs(page.center("node-c1")[0] - page.center("node-t1")[0]) < 0.5)
            # (no more lines to the second process from here on: each line syncs first)
            # another session's batch whose notification is still on its way: the move to
            # 50 again, written as the diagram's next batch without NOTIFY
            sql(url, f"""WITH d AS (UPDATE flow_diagram SET head = head + 1 WHERE name = '{name}' RETURNING id, head)
                         INSERT INTO flow_batch (diagram, n, time, name, summary, actions)
                         SELECT b.diagram, d.head, b.time, b.name, b.summary, b.actions FROM flow_batch b, d
                         WHERE b.diagram = d.id AND b.n = d.head - 2""")
            drawn, logged = page.center("node-c1"), len(two.log())
            count_sends(page)
            page.js(f'send({{ type: "pointer", phase: "down", x: {cx}, y: {cy} }}); '
                    f'send({{ type: "pointer", phase: "move", x: {cx + 40}, y: {cy} }}); '
                    f'send({{ type: "pointer", phase: "up", x: {cx + 40}, y: {cy} }});')
            h.wait_until("every request answered", lambda: settled(page))
            errors = page.js("window.preview.errors")
            assert any("conflicts with the database's version" in e and "node 'c1'" in e for e in errors), errors
            status = page.js("document.getElementById('status').textContent")
            assert "conflicts with the database's version" in status, status
            # the drag was undone as a whole: the last line printed for c1 says it is back at
            # its start, and the page draws it there
            told = [l for l in two.log()[logged:].splitlines() if l.startswith("node~ c1")]
            assert told[-1:] == ["node~ c1 position (0, 900)"], two.log()[logged:]
            h.wait_until("c1 drawn at its start", lambda: page.center("node-c1") == drawn)
            # the next line syncs: the batch that was on its way arrives (nothing of the drag
            # was written), and all agree
            assert int(two.evaluate(f'#workspace:versions("{name}")')) == versions + 1
            h.wait_until("c1 at the other session's place", lambda: near(two, "c1", x=50))
            one.line("workspace:sync()")
            h.wait_until("the first process too", lambda: near(one, "c1", x=50))
            assert one.evaluate("store:export()") == two.evaluate("store:export()")

        @h.test("collab: after PostgreSQL restarts, an idle server process reconnects by itself and its page catches up")
        def _():
            if not os.environ.get("FLOW_TEST_POSTGRES_DIR"):
                print("      (skipped: FLOW_TEST_POSTGRES_DIR is not set, the cluster is not ours to restart)")
                return
            root = os.path.dirname(os.path.abspath(__file__))
            subprocess.run([os.path.join(root, "pg-cluster"), "restart"], check=True, timeout=60)
            h.wait_until("two to notice", lambda: "connection to the database was lost" in two.log(), timeout=30)
            one.line('store:addNode{ id = "r1", x = 0, y = 600 }')
            h.wait_until("r1 in the other process's page", lambda: page.js("!!document.getElementById('node-r1')"), timeout=30)
            assert "reconnected" in two.log()
    finally:
        if page:
            page.close()
        for p in (one, two, term):
            if p:
                p.close()
