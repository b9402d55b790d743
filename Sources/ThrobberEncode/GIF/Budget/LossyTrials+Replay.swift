import Synchronization
import ThrobberCodecs
import ThrobberCore

extension LossyTrials {
    /// A look's writer, stopped at its checkpoint: a whole file at its
    /// level goes on from there instead of writing the first quarter of
    /// the timeline again. Worker threads take turns through its lock.
    final class Look: Sendable {
        private let writer: Mutex<GIFFrameWriter>

        /// Keeps `writer`, which writes into a memory sink.
        init(_ writer: sending GIFFrameWriter) { self.writer = Mutex(writer) }

        /// The writer, taken out to go on with.
        func take() -> GIFFrameWriter { writer.withLock { $0 } }
    }

    /// The files at `levels`, from the kept frames on up to `jobs`
    /// threads: the same bytes as new encodes at those levels would give.
    /// `untilCheckpoint`: only their bytes at the checkpoint (`File.prefix`),
    /// a quarter of the work, for the search to scale; their writers are
    /// kept (`looks`), and a whole file at a level looked at last goes on
    /// from its look. (The looks of earlier rounds are let go once a whole
    /// round is written: their levels are seldom asked for again.)
    func replay(levels: [Int], jobs: Int, untilCheckpoint: Bool = false) throws -> [File] {
        let (header, kept) = (header, kept)
        let limits = levels.map { limit(level: $0) }
        let from = levels.map { untilCheckpoint ? nil : looks[$0] }
        let results = try parallelMap(levels.count, jobs: jobs) { i in
            try Self.replay(
                level: levels[i], header: header, kept: kept, limit: limits[i], untilCheckpoint: untilCheckpoint,
                from: from[i])
        }
        if untilCheckpoint {
            for (level, result) in zip(levels, results) { looks[level] = result.look }
        } else {
            looks = [:]
        }
        return results.map(\.file)
    }

    /// One level's file, or its look (to the checkpoint, its writer kept);
    /// a whole file goes on `from` a look at its level where there is one.
    private static func replay(
        level: Int, header: Header?, kept: [[GIFFrameWriter.Paletted]]?, limit: Int?, untilCheckpoint: Bool,
        from look: Look?
    ) throws -> (file: File, look: Look?) {
        guard let header, let kept else { throw ThrobberError(.software, "lossy replay without kept frames") }
        let checkpoint = GIFTuning.checkpoint(entries: header.entries)
        var sink = MemorySink()
        var writer: GIFFrameWriter
        // The frames left: from the batch after the first written whole.
        var rest = kept[...]
        if let look, let checkpoint, var trial = look.take().trial, let mark = trial.mark {
            if let over = trial.firstOver {
                // The whole file would have stopped there, past its limit.
                let prefix = over.entries == mark.entries ? mark.bytes : nil
                return (File(level: level, over: over, entries: header.entries, projected: nil, prefix: prefix), nil)
            }
            writer = look.take()
            guard let memory = writer.memory else { throw ThrobberError(.software, "lossy look without its file") }
            sink = memory
            trial.resume(limit: limit)
            writer.trial = trial
            // The look stopped after the first frame to reach the
            // checkpoint; the rest of that frame's batch follows.
            if let b = kept.firstIndex(where: { $0.contains { $0.frame.endEntry >= checkpoint } }),
                let j = kept[b].firstIndex(where: { $0.frame.endEntry >= checkpoint })
            {
                try writer.write(Array(kept[b][(j + 1)...]))
                rest = kept[(b + 1)...]
            }
        } else {
            writer = try GIFFrameWriter(
                sink: sink, width: header.width, height: header.height, choice: header.choice, loop: header.loop,
                lossy: level, fast: header.fast)
            writer.triesInterlace = header.still
            writer.trial = GIFTrial(
                limit: untilCheckpoint ? nil : limit, checkpoint: checkpoint, stopsAtCheckpoint: untilCheckpoint,
                watch: untilCheckpoint ? limit : nil)
        }
        for batch in rest where !(writer.trial?.isDone ?? false) {
            try writer.write(batch)
        }
        if untilCheckpoint {
            guard let mark = writer.trial?.mark else {
                throw ThrobberError(.software, "lossy replay without a checkpoint")
            }
            let file = File(level: level, over: mark, entries: header.entries, projected: nil, prefix: mark.bytes)
            return (file, Look(writer))
        }
        if let over = writer.trial?.over {
            let file = File(
                level: level, over: over, entries: header.entries, projected: nil, prefix: writer.trial?.mark?.bytes)
            return (file, nil)
        }
        try writer.finish()
        return (File(level: level, bytes: sink.bytes, psnr: writer.trial?.psnr, prefix: writer.trial?.mark?.bytes), nil)
    }
}
