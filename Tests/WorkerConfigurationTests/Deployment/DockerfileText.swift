import Foundation

/// A Dockerfile read as build stages of instructions, as far as the deployment checks need: comments
/// dropped, `\` continuations joined, instruction names upper-cased.
struct DockerfileText {
    struct Instruction: Equatable {
        /// `FROM`, `COPY`, `USER`, …
        let name: String
        /// The rest of the line, continuations joined with single spaces.
        let arguments: String
    }

    struct Stage {
        /// The `AS` name, or nil for an unnamed stage.
        let name: String?
        /// The image or stage after `FROM`.
        let base: String
        /// The stage's instructions after its `FROM`.
        var instructions: [Instruction]

        /// The arguments of every instruction called `name` in this stage.
        func arguments(of name: String) -> [String] {
            instructions.filter { $0.name == name }.map(\.arguments)
        }
    }

    /// Instructions before the first `FROM` (global `ARG`s).
    private(set) var preamble: [Instruction] = []
    private(set) var stages: [Stage] = []

    init(_ text: String) {
        var logical: [String] = []
        var pending = ""
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if pending.isEmpty, line.isEmpty || line.hasPrefix("#") { continue }
            if !pending.isEmpty, line.hasPrefix("#") { continue }
            if line.hasSuffix("\\") {
                pending += line.dropLast().trimmingCharacters(in: .whitespaces) + " "
            } else {
                logical.append(pending + line)
                pending = ""
            }
        }
        for line in logical {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            let instruction = Instruction(name: parts[0].uppercased(), arguments: parts.count > 1 ? parts[1] : "")
            if instruction.name == "FROM" {
                let words = instruction.arguments.split(separator: " ").map(String.init).filter { !$0.hasPrefix("--") }
                let name = words.count >= 3 && words[1].uppercased() == "AS" ? words[2] : nil
                stages.append(Stage(name: name, base: words.first ?? "", instructions: []))
            } else if stages.isEmpty {
                preamble.append(instruction)
            } else {
                stages[stages.count - 1].instructions.append(instruction)
            }
        }
    }

    func stage(named name: String) -> Stage? {
        stages.first { $0.name == name }
    }

    /// The default of a global `ARG` (`ARG NAME=value`).
    func argumentDefault(_ name: String) -> String? {
        preamble.filter { $0.name == "ARG" }.compactMap { instruction -> String? in
            let parts = instruction.arguments.split(separator: "=", maxSplits: 1).map(String.init)
            return parts.count == 2 && parts[0] == name ? parts[1] : nil
        }.first
    }
}
