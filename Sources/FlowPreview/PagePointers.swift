import FlowCore

/// Which page holds the pointer of each store (docs/preview.md, "Several people, one
/// page"). A store has one pointer input (`store:pointerDown` ... `pointerUp`), and pages
/// press, move and release at the same time; so one page's gesture holds a store's pointer
/// from its press to its release:
///
/// - a press from another page ends the held gesture first, as a release where that page
///   last pointed (its drag so far is kept: one undo step), then starts its own: the later
///   gesture wins;
/// - moves and releases of a page that does not hold the pointer are ignored (its gesture
///   was ended by another page's press);
/// - a page that goes away in the middle of a gesture has it cancelled (a drag moves back).
public struct PagePointers {
    /// A gesture in progress: its page and the canvas point it last gave.
    public struct Hold: Sendable, Equatable {
        public let page: Int
        public var last: Point
    }

    /// view -> the gesture holding that store's pointer.
    private var holds: [Int: Hold] = [:]

    public init() {}

    /// `page` presses at `point` on `view`: it holds the pointer from now on. Returns the
    /// gesture of another page that must be ended first (nil: none).
    public mutating func press(view: Int, page: Int, at point: Point) -> Hold? {
        let previous = holds[view]
        holds[view] = Hold(page: page, last: point)
        return previous?.page == page ? nil : previous
    }

    /// A move, release or cancel of `page` on `view`: whether it is to be applied (the page
    /// holds the pointer). A release or cancel ends the hold.
    public mutating func follow(view: Int, page: Int, ending: Bool, at point: Point) -> Bool {
        guard holds[view]?.page == page else { return false }
        if ending { holds[view] = nil } else { holds[view]?.last = point }
        return true
    }

    /// `page` went away: the views whose pointer it held (their gestures are to be
    /// cancelled), which no longer are.
    public mutating func leave(page: Int) -> [Int] {
        let views = holds.filter { $0.value.page == page }.map(\.key).sorted()
        for v in views { holds[v] = nil }
        return views
    }

    /// The view's store is gone.
    public mutating func forget(view: Int) { holds[view] = nil }

    /// Who holds `view`'s pointer.
    public func holder(of view: Int) -> Int? { holds[view]?.page }
}
