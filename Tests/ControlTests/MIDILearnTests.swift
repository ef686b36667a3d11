import Control
import Parameters
import Testing

/// The one MIDI learn rule every surface follows.
@Suite("MIDI learn")
struct MIDILearnTests {
    @Test("the first controller heard after the learn began is the one learnt; none heard, it waits")
    func learnsTheNextController() throws {
        let learn = try MIDILearn(.cutoff, heard: (count: 12, controller: 71), generation: 3, current: 3)
        #expect(learn.outcome(last: (count: 12, controller: 71), current: 3) == .waiting, "the controller heard before does not count")
        #expect(learn.outcome(last: nil, current: 3) == .waiting)
        #expect(learn.outcome(last: (count: 13, controller: 21), current: 3) == .learnt(controller: 21))
    }

    @Test("a chain edited meanwhile drops the learn: its row may mean another parameter")
    func droppedByAnEdit() throws {
        let learn = try MIDILearn(.cutoff, heard: (count: 0, controller: 0), generation: 3, current: 3)
        #expect(learn.outcome(last: (count: 5, controller: 21), current: 4) == .dropped)
    }

    @Test("no MIDI input, or a chain that changed as the request came, is refused in one line")
    func refusals() {
        let none = #expect(throws: MIDIControlError.self) { try MIDILearn(.cutoff, heard: nil, generation: 0, current: 0) }
        #expect(none?.description == MIDILearn.noInput)
        let stale = #expect(throws: MIDIControlError.self) { try MIDILearn(.cutoff, heard: (count: 1, controller: 7), generation: 2, current: 3) }
        #expect(stale?.description == "the chain changed as the request came; ignored")
    }
}
