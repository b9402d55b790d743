import Foundation
import Testing
import ThrobberCore

@testable import ThrobberScene

/// Numbers in vector files are what printf("%.*f") writes, trailing zeros
/// dropped: VectorText.number makes most of them without printf, so it is
/// compared with glibc's printf itself on values of every size, on exact
/// ties (where printf rounds to even) and around where it hands over.
@Suite("vector export: numbers are printf's")
struct VectorTextTests {
    /// glibc's vsnprintf text for `x` at `digits` decimals, trailing zeros
    /// and `-0` dropped.
    static func printf(_ x: Double, _ digits: Int) -> String {
        var s = cFormat("%.*f", Int32(digits), x)
        if s.contains(".") {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        return s == "-0" ? "0" : s
    }

    @Test("random values from 1e-9 to 1e16, both signs, 0 to 9 decimals")
    func randomValues() {
        var rng = SystemRandomNumberGenerator()
        var mismatches: [String] = []
        for _ in 0..<100_000 {
            let magnitude = pow(10, Double.random(in: -9...16, using: &rng))
            let x = (Bool.random(using: &rng) ? -1 : 1) * magnitude * Double.random(in: 1...10, using: &rng)
            let digits = Int.random(in: 0...9, using: &rng)
            if VectorText.number(x, digits) != Self.printf(x, digits) { mismatches.append("\(x) at \(digits)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    @Test("exact ties round to even, as printf does; the neighbours of ties; numbers near the hand-over")
    func tiesAndEdges() {
        var values: [(Double, Int)] = []
        for digits in 0...6 {
            let step = pow(10, -Double(digits))
            for k in 0..<2000 {
                // k + ½ in units of the last digit: exact in binary only
                // where the unit is a power of two's multiple, as for
                // digits 0 and 1 (0.25, 0.75 …); the others are near ties.
                let tie = (Double(k) + 0.5) * step
                values += [(tie, digits), (-tie, digits), (tie.nextUp, digits), (tie.nextDown, digits)]
            }
            for shift in [0.125, 0.375, 0.625, 0.875, 0.0625, 0.5] {
                values.append((shift, digits))
                values.append((-shift, digits))
            }
            // Around 2^52 / 10^digits, where the exact path hands over to printf.
            let edge = 4_503_599_627_370_496 / pow(10, Double(digits))
            var x = edge
            for _ in 0..<50 {
                values += [(x, digits), (-x, digits)]
                x = x.nextDown
            }
            x = edge
            for _ in 0..<50 {
                x = x.nextUp
                values.append((x, digits))
            }
        }
        values += [(0, 3), (-0.0, 3), (.infinity, 3), (.nan, 3), (-0.0004, 3), (-0.0005, 3), (1e308, 3), (5e-324, 6)]
        let mismatches = values.filter { x, d in
            VectorText.number(x, d) != Self.printf(x.isFinite ? x : 0, d)
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }
}
