import CJack

/// Puts a cycle's MIDI messages in time order, as JACK takes a port's messages: a stable
/// insertion sort, so messages at one frame keep the order they were made in (a slot's, or a
/// 14-bit pair's, are in order already and stay so). Cycles hold a few messages, mostly
/// sorted, where this is the fastest sort and needs no memory.
@_noLocks
func sortByFrame(_ events: UnsafeMutablePointer<DetentPortMIDIEvent>, count: Int) {
    var i = 1
    while i < count {
        let event = events[i]
        var j = i
        while j > 0 && events[j - 1].frame > event.frame {
            events[j] = events[j - 1]
            j -= 1
        }
        events[j] = event
        i += 1
    }
}
