import ThrobberCodecs
import ThrobberCore

/// APNG's byte-budget search (`BudgetStrategy`): the palette ladder, each
/// step one whole encode; files fall with the steps, so the lower bound is
/// counted first.
struct APNGBudget: BudgetStrategy {
    var steps: [BudgetStep]
    var boundsAfterFirstStep: Bool { false }
    var sizesFollowSteps: Bool { true }

    init(_ settings: EncodeSettings) {
        steps = BudgetStep.paletteLadder(settings, levels: [0])
    }

    mutating func attempt(_ i: Int, level: Int?, run: BudgetRun, search: inout BudgetSearch) throws -> Bool {
        try run.attemptWhole(steps[i], index: i, label: describe(steps[i], levels: [0]), search: &search)
    }

    func lowerBound(_ last: BudgetStep, level: Int, run: BudgetRun) throws -> BudgetRun.Overrun? {
        try run.countSmallest(last.applied(to: run.settings))
    }

    /// "64 colors, quality 20", "truecolor, default quality".
    func describe(_ step: BudgetStep, levels: [Int]) -> String {
        "\(step.colors.map { "\($0) colors" } ?? "truecolor"), \(step.quality.map { "quality \($0)" } ?? "default quality")"
    }
}

extension APNGEncoder {
    static func budget(_ settings: EncodeSettings, maxBytes: Int) -> any BudgetStrategy { APNGBudget(settings) }

    /// "quality 82, 64 colors", "default quality, truecolor, dither 0.5".
    static func describe(_ choice: BudgetChoice) -> String {
        var parts = [choice.quality.map { "quality \($0)" } ?? "default quality"]
        parts.append(choice.colors.map { "\($0) colors" } ?? "truecolor")
        if choice.dither != 1 { parts.append("dither \(cFormat("%g", choice.dither))") }
        return parts.joined(separator: ", ")
    }
}
