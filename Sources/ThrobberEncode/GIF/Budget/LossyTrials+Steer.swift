extension LossyTrials {
    /// After each batch, stops the files that cannot be the answer, each
    /// at its checkpoint with the size it is expected to reach (`growth`
    /// from the pass before): a file whose bytes there scale past the
    /// limit by more than `GIFTuning.projectionMargin`, and, where the
    /// lowest level's file is expected to fit within `GIFTuning.fitMargin`,
    /// every higher level (they cannot look better). Returns `.abandoned`
    /// once every file is past the limit: the rest of the frames would only
    /// make them larger, and the encode stops. (A file stopped below the
    /// limit is not: the frames are kept on, for it to be written whole.)
    func steer(_ writers: [GIFEncoder.WriterBox]) -> Course {
        guard let limit else { return .onward }
        for (box, level) in zip(writers, levels) {
            guard let trial = box.trial, trial.over == nil, self.limit(level: level) != nil, let mark = trial.mark,
                let growth = growth[level]
            else { continue }
            let projected = Double(mark.bytes) * growth
            if projected > GIFTuning.projectionMargin * Double(limit) {
                box.stop(projected: Int(projected))
            }
        }
        if let lowest = writers.first?.trial, lowest.over == nil, let mark = lowest.mark,
            let lowestGrowth = growth[levels[0]],
            Double(mark.bytes) * lowestGrowth * GIFTuning.fitMargin <= Double(limit)
        {
            for (box, level) in zip(writers, levels).dropFirst() {
                guard let trial = box.trial, trial.over == nil, self.limit(level: level) != nil,
                    let mark = trial.mark, let levelGrowth = self.growth[level]
                else { continue }
                box.stop(projected: Int(Double(mark.bytes) * levelGrowth))
            }
        }
        let trials = writers.map(\.trial)
        if trials.allSatisfy({ $0?.over != nil }), !trials.contains(where: { ($0?.projected ?? .max) <= limit }) {
            abandon(trials)
            return .abandoned
        }
        return .onward
    }

    /// What a trial does after a batch.
    enum Course {
        /// Writes the next batch.
        case onward
        /// Stops: every file is over the limit (`abandoned`).
        case abandoned
    }
}
