import AudioEngine
import CSlot
import Platform

/// The slots of an engine let go between two whole signals (Python's chains start afresh at
/// each), offered to the engine made next: a slot of the same name and plug-in is made anew
/// where it is — its sandbox frees the plug-in and makes it again on the same shared block —
/// instead of a new block, proxy and watching thread, and the add, ready and drop messages
/// with their wake-ups. The sound is a new slot's: the same request made, run once and
/// reset; no history, no fade.
struct RenewalOffers: Sendable {
    /// The process that offered them: a child made by `fork` takes none of its parent's.
    var process: Int32 = 0
    var slots: [String: IsolatedSlot] = [:]
}

extension SandboxRegistry {
    /// Offers `owners` (an engine's slots' kernel owners) to the next engine made, until
    /// ``withdrawOffers()``: offline, and only while that engine will never run again.
    package func offer(_ owners: [AnyObject?]) {
        let slots = owners.compactMap { $0 as? IsolatedSlot }
        offered.withLock { offers in
            offers = RenewalOffers(process: ThisProcess.id,
                                   slots: Dictionary(slots.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a }))
        }
    }

    /// The slots not taken are let go (with the engine that holds them).
    package func withdrawOffers() {
        offered.withLock { $0 = RenewalOffers() }
    }

    /// Slot `key`'s last slot, its plug-in made anew for `request`, when one was offered that
    /// can be (the same launcher, plug-in, format and deadlines, healthy); nil otherwise, and
    /// a new slot is started as usual.
    ///
    /// - Throws: ``SlotError`` as ``IsolatedSlot/start(_:files:state:format:launcher:slot:)``
    ///   throws when the plug-in cannot be made, or its process faults making it.
    func renewal(of key: String, processor: Processor, request: SlotRequest, launcher: SlotLauncher) throws(SlotError) -> IsolatedSlot? {
        guard !request.format.realtime else { return nil }
        let offered = offered.withLock { offers -> IsolatedSlot? in
            guard offers.process == ThisProcess.id else { return nil }
            return offers.slots.removeValue(forKey: key)
        }
        var format = request.format
        format.startingValues = nil
        guard let slot = offered, slot.registry == ObjectIdentifier(self), slot.processor.identifier == processor.identifier,
              slot.processor.table.count == processor.table.count, slot.processor.outputs.count == processor.outputs.count,
              slot.format == format, slot.startDeadline == launcher.startDeadline, slot.deadline == launcher.deadline(request.format)
        else { return nil }
        return try slot.renew(request) ? slot : nil
    }
}

extension IsolatedSlot {
    /// Has its sandbox make the plug-in anew for `request` on the same block, and waits (as an
    /// offline start does) until it is ready. False, nothing asked, when the slot is not
    /// healthy and idle (then a new one is started).
    ///
    /// - Throws: ``SlotError`` with the process's reason when the plug-in cannot be made, or
    ///   its process faulted or hung making it (killed by the watching thread, as at a start).
    func renew(_ request: SlotRequest) throws(SlotError) -> Bool {
        guard sandbox.usable, member >= 0, detent_slot_state(shared) == UInt32(DETENT_SLOT_READY),
              proxy.pointee.failed == 0, news.said.withLock({ $0.fault == nil }) else { return false }
        // STARTING from now, as a new slot's block: the watching thread keeps the start deadline.
        detent_slot_set_state(shared, UInt32(DETENT_SLOT_STARTING))
        do {
            try sandbox.renew(member, request)
        } catch {
            detent_slot_set_state(shared, UInt32(DETENT_SLOT_QUIT))
            return false
        }
        if let failure = awaitStart(upTo: Self.launchDeadline(startDeadline) + startDeadline + .seconds(1)) {
            throw SlotError(failure, fault: !sandbox.usable)
        }
        guard detent_slot_state(shared) == UInt32(DETENT_SLOT_READY) else {
            throw SlotError("\(processor.name): its isolated process did not make it anew in time", fault: true)
        }
        detent_slot_proxy_renew(proxy)
        return true
    }
}
