/// Reading and writing taking turns on one thread. On two cores, three busy threads — reader,
/// engine, writer — would take turns on them instead, and the engine, the longest stage,
/// would wait for its share; with reading and writing on one thread each stage has a core.
///
/// The thread writes whatever the engine has finished first (so slots come free as early as
/// possible), otherwise reads ahead while a slot is free, and only sleeps when it can do
/// neither.
enum IOStage {
    static func run(reading: ReadStage, writing: WriteStage, ring: BlockRing) {
        var readSlot = 0, writeSlot = 0
        var inFlight = 0  // slots read and not yet written, the end marker included
        var atEnd = false
        while true {
            let canRead = !atEnd && inFlight < ring.slots
            if canRead && !ring.processed.tryWait() {
                guard let n = reading.read(into: readSlot) else { return }
                readSlot = (readSlot + 1) % ring.slots
                inFlight += 1
                atEnd = n == 0
                continue
            }
            if !canRead { ring.processed.wait() }
            if ring.isStopped { return }
            guard writing.write(writeSlot) else { return }
            writeSlot = (writeSlot + 1) % ring.slots
            inFlight -= 1
        }
    }
}
