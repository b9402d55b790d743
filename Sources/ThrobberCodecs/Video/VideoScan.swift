internal import CFFmpeg
import ThrobberCore

/// The frame times of a window of a video stream, from its packets'
/// timestamps (nothing is decoded).
struct VideoScan {
    /// Seconds per timestamp unit.
    let timeBase: Rational
    /// The timestamp of the clip's first frame: the first packet's for
    /// the whole clip, else the stream's start time from its header.
    private(set) var clipStart: Int64 = 0
    /// The timestamps of the window's frames, sorted, distinct; the first
    /// is the frame on screen at the window's start.
    private(set) var framePts: [Int64] = []
    /// When each of those frames starts, in seconds from the clip's first
    /// frame: its timestamp, or for a whole clip whose timestamps round a
    /// constant rate (``VideoRate/exact`` false), its place at that rate.
    private(set) var frameTimes: [Rational] = []
    /// Seconds from the clip's first frame to where the window's last frame ends.
    private(set) var windowEnd: Rational = 0
    /// Frames per second when all the window's frames last the same.
    private(set) var frameRate: Rational?
    /// The clip's length and frame count (see ``VideoFile/init(path:from:to:budget:threads:)``).
    private(set) var clipDuration: Rational = 0
    private(set) var clipFrames = 0

    /// Farthest a timestamp may lie from the clip's start, in seconds (12
    /// days, far past what an encode takes): keeps every time an exact
    /// fraction whose arithmetic cannot overflow, whatever a damaged file
    /// claims.
    static let maxSeconds: Int64 = 1 << 20
    /// Largest time-base numerator and denominator taken (1/90000,
    /// 1001/30000 and 1/1000000 are common). With ``maxSeconds`` it keeps
    /// the products of two frame times' numerators and denominators within
    /// 64 bits.
    static let maxTimeBase = (numerator: Int64(1) << 20, denominator: Int64(1) << 20)

    /// One packet's presentation time and duration, in time-base units.
    private struct Entry {
        var pts: Int64
        var duration: Int64
    }

    /// Packets of the video stream the scan read.
    private(set) var packetsRead = 0

    /// Scans `demuxer`'s packets for the frames of [`from`, `to`); `timeBase`
    /// has passed ``check(timeBase:path:)``. Where a seek to `from` lands
    /// after it (or past the end), the scan reads from the start of the
    /// file, opened again by `reopen`: a timestamp seek back to the start
    /// fails in some containers.
    init(
        _ demuxer: VideoDemuxer, reopen: () throws -> VideoDemuxer, timeBase: Rational, from: Rational?, to: Rational?
    ) throws {
        self.timeBase = timeBase
        let stream = demuxer.stream.pointee
        let nopts = throbber_av_nopts_value()
        let whole = from == nil && to == nil
        clipStart = stream.start_time != nopts ? stream.start_time : 0
        guard clipStart.magnitude <= 1 << 60 else {
            throw ThrobberError(.data, "\(demuxer.path): its start time is out of range (damaged)")
        }
        let from = from ?? 0
        let fromPts = clipStart + (from / timeBase).floor
        var (entries, atEnd) = try scan(demuxer, seek: from > 0 ? fromPts : nil, to: to)
        packetsRead = demuxer.packetsRead
        if from > 0, entries.first.map({ $0.pts > fromPts }) ?? true {
            let start = try reopen()
            (entries, atEnd) = try scan(start, seek: nil, to: to)
            packetsRead += start.packetsRead
        }
        guard let first = entries.first else {
            throw ThrobberError(.data, "\(demuxer.path): the video stream has no frames")
        }
        if whole { clipStart = first.pts }
        let startIndex = whole ? 0 : entries.lastIndex { $0.pts <= max(fromPts, first.pts) } ?? 0
        let shown = entries[startIndex...].filter { to == nil || seconds($0.pts) < to! || $0.pts == first.pts }
        guard let last = shown.last else {
            throw ThrobberError(.usage, "\(demuxer.path): the window starts after the clip's last frame")
        }
        let next = entries.first { $0.pts > last.pts }
        let clipEnd = seconds(next?.pts ?? (last.pts + lastDuration(shown, last, stream)))
        // A scan that stopped before the file's end saw a frame start at or after `to`.
        let end = to.map { atEnd ? min(clipEnd, $0) : $0 } ?? clipEnd
        if from >= clipEnd && startIndex == entries.count - 1 && next == nil {
            throw ThrobberError(
                .usage,
                "\(demuxer.path): the part asked for starts at \(ClockTime.text(from)), at or after the clip's end (it lasts \(ClockTime.text(clipEnd)))"
            )
        }
        framePts = shown.map(\.pts)
        frameTimes = framePts.map { seconds($0) }
        windowEnd = end
        let rate = VideoRate.find(
            framePts, lastLength: (end - seconds(last.pts)) / timeBase, timeBase: timeBase,
            guesses: Self.guesses(stream))
        frameRate = rate?.fps
        if whole, let rate, !rate.exact { snap(to: rate.fps) }
        if whole {
            clipDuration = windowEnd
            clipFrames = framePts.count
        } else {
            clipDuration = Self.headerDuration(demuxer, timeBase) ?? end
            clipFrames = stream.nb_frames > 0 ? Int(stream.nb_frames) : framePts.count
        }
    }

    /// Seconds from the clip's first frame to timestamp `pts`.
    private func seconds(_ pts: Int64) -> Rational { Rational(pts - clipStart) * timeBase }

    /// Reads packets (from the key frame at or before `seek`, when given)
    /// until one is decoded after `to` or the file ends. Returns them by
    /// time, and whether the file ended.
    private func scan(_ demuxer: VideoDemuxer, seek: Int64?, to: Rational?) throws -> ([Entry], Bool) {
        if let seek { _ = demuxer.seek(to: seek) }
        let nopts = throbber_av_nopts_value()
        var entries: [Entry] = []
        var last: Int64 = clipStart
        while try demuxer.read(at: { " after \(ClockTime.text(seconds(last)))" }) {
            let packet = demuxer.packet.pointee
            if packet.flags & AV_PKT_FLAG_DISCARD != 0 { continue }
            let pts = packet.pts != nopts ? packet.pts : packet.dts
            guard pts != nopts else { continue }
            try checkRange(pts, packet.duration, demuxer.path, after: last)
            last = pts
            entries.append(Entry(pts: pts, duration: max(0, packet.duration)))
            guard entries.count <= VideoFile.maxFrames else {
                throw ThrobberError(
                    .data,
                    "\(demuxer.path): more than \(VideoFile.maxFrames) frames, over Throbber's limit for one video; pick a shorter part with --from and --to"
                )
            }
            let order = packet.dts != nopts ? packet.dts : pts
            if let to, seconds(order) >= to { return (Self.distinct(entries), false) }
        }
        return (Self.distinct(entries), true)
    }

    /// Refuses a time base outside ``maxTimeBase``.
    static func check(timeBase: Rational, path: String) throws {
        guard (1...maxTimeBase.numerator).contains(timeBase.numerator),
            timeBase.denominator <= maxTimeBase.denominator
        else {
            throw ThrobberError(.data, "\(path): its time base \(timeBase) is over Throbber's limit")
        }
    }

    /// Refuses a timestamp farther than ``maxSeconds`` from the clip's start
    /// or a duration longer than that (a damaged or hostile file).
    private func checkRange(_ pts: Int64, _ duration: Int64, _ path: String, after last: Int64) throws {
        let limit = Self.maxSeconds * timeBase.denominator / timeBase.numerator
        let (delta, overflow) = pts.subtractingReportingOverflow(clipStart)
        guard !overflow, delta.magnitude <= limit, duration <= limit else {
            throw ThrobberError(
                .data,
                "\(path) after \(ClockTime.text(seconds(last))): a timestamp more than \(Self.maxSeconds) s from the clip's start, over Throbber's limit (damaged)"
            )
        }
    }

    /// `entries` sorted by time, one per timestamp.
    private static func distinct(_ entries: [Entry]) -> [Entry] {
        var sorted = entries.sorted { $0.pts < $1.pts }
        var kept = 0
        for entry in sorted where kept == 0 || entry.pts != sorted[kept - 1].pts {
            sorted[kept] = entry
            kept += 1
        }
        return Array(sorted.prefix(kept))
    }

    /// How long the last frame lasts: its packet's duration, else the gap
    /// before it, else one frame at the stream's average rate.
    private func lastDuration(_ shown: [Entry], _ last: Entry, _ stream: AVStream) -> Int64 {
        if last.duration > 0 { return last.duration }
        if shown.count >= 2 { return last.pts - shown[shown.count - 2].pts }
        let rate = stream.avg_frame_rate
        guard rate.num > 0, rate.den > 0 else { return max(1, (Rational(1, 25) / timeBase).roundedHalfUp) }
        return max(1, (Rational(Int64(rate.den), Int64(rate.num)) / timeBase).roundedHalfUp)
    }

    /// The stream's length from its header (or the container's), in
    /// seconds, with timestamps in `timeBase`.
    static func headerDuration(_ demuxer: VideoDemuxer, _ timeBase: Rational) -> Rational? {
        let stream = demuxer.stream.pointee
        if stream.duration > 0 && stream.duration != throbber_av_nopts_value() {
            return Rational(stream.duration) * timeBase
        }
        let total = demuxer.context.pointee.duration
        return total > 0 ? Rational(total, Int64(AV_TIME_BASE)) : nil
    }

    /// FFmpeg's guesses of the stream's rate (r_frame_rate, avg_frame_rate).
    private static func guesses(_ stream: AVStream) -> [Rational] {
        [stream.r_frame_rate, stream.avg_frame_rate].compactMap { (r: AVRational) -> Rational? in
            guard r.num > 0, r.den > 0 else { return nil }
            return Rational(Int64(r.num), Int64(r.den))
        }
    }

    /// Puts the whole clip's frames where constant rate `fps` does: frame i
    /// at i / fps, and the end at frames / fps when the last frame lasts
    /// about a frame (within two ticks: its timestamp and its duration are
    /// both rounded), so a 60 fps WebM at 1 ms ticks lasts 120 / 60 s, not
    /// 1.999 s. Nothing moves when `fps` has a numerator over the time-base
    /// limit (the times would outgrow the exact arithmetic's budget).
    private mutating func snap(to fps: Rational) {
        guard fps.numerator <= Self.maxTimeBase.denominator else { return }
        let period = 1 / fps
        let times = framePts.indices.map { Rational(Int64($0)) * period }
        let lastLength = (windowEnd - frameTimes[frameTimes.count - 1]) / timeBase
        var end = windowEnd
        if period / timeBase < lastLength + Rational(2) { end = Rational(Int64(times.count)) * period }
        guard times[times.count - 1] < end else { return }
        frameTimes = times
        windowEnd = end
    }
}
