import Parameters

extension Panel {
    /// A pickup controller far from its knob does not move it until it passes the knob's
    /// position. While one waits and moves, the message line says where it is against the
    /// knob and which way to turn it, e.g. `cutoff: controller at 20 %, knob at 64 % — turn
    /// it up to pick up`; once it has caught the knob, that it has.
    func showPickups(_ pickups: [ParameterIndex: Double]) {
        defer { lastPickups = pickups }
        for (i, id) in ids.enumerated() {
            let knob = knobs[i].position
            if let controller = pickups[id], controller != lastPickups[id] {
                let way = controller < knob ? "up" : "down"
                message = Message(text: "\(knobs[i].scale.name): controller at \(Self.percent(controller)), knob at "
                                  + "\(Self.percent(knob)) — turn it \(way) to pick up", isError: false)
                needsDraw = true
            } else if pickups[id] == nil, lastPickups[id] != nil {
                message = Message(text: "\(knobs[i].scale.name): picked up", isError: false)
                needsDraw = true
            }
        }
    }

    private static func percent(_ position: Double) -> String {
        "\(Int((min(max(position, 0), 1) * 100).rounded())) %"
    }
}
