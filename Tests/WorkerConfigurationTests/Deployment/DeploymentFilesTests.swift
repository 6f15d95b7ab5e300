import Foundation
import Testing
import TestSupport

/// The container, Kubernetes and Grafana files under `docker/` and `deploy/`, checked statically: no
/// Docker engine or cluster is needed (or was available where they were written). YAML is parsed by
/// python3's PyYAML and linted by yamllint; configurations are loaded with the worker's own loader.
/// Nested suites: ``Dockerfile``, ``Compose``, ``Kubernetes``, ``Grafana``.
@Suite struct DeploymentFilesTests {
    /// The files this work added; the walk below must find at least these.
    static let expectedYAML = [
        "deploy/kubernetes/configmap.yaml", "deploy/kubernetes/deployment.yaml", "deploy/kubernetes/kustomization.yaml",
        "deploy/kubernetes/namespace.yaml", "deploy/kubernetes/poddisruptionbudget.yaml",
        "deploy/kubernetes/scaledobject.yaml", "deploy/kubernetes/secret.yaml", "deploy/kubernetes/service.yaml",
        "docker/compose.yaml", "docker/worker.compose.yaml",
    ]

    @Test func theDeploymentFoldersHoldTheExpectedYAML() {
        let found = Set(RepositoryFiles.yamlFiles())
        #expect(Set(Self.expectedYAML).subtracting(found).isEmpty, "missing: \(Set(Self.expectedYAML).subtracting(found).sorted())")
    }

    @Test(.io, .enabled(if: ExternalTool.hasPythonYAML, "needs python3 with PyYAML (apt install python3-yaml)"))
    func everyYAMLFileParsesIntoDocuments() throws {
        let files = RepositoryFiles.yamlFiles()
        for (file, documents) in zip(files, try RepositoryFiles.yamlDocuments(of: files)) {
            #expect(!documents.isEmpty, "\(file) holds no YAML document")
            #expect(documents.allSatisfy { !$0.members.isEmpty }, "\(file): every document should be a non-empty mapping")
        }
    }

    @Test(.io, .enabled(if: ExternalTool.isAvailable("yamllint"), "needs yamllint (apt install yamllint)"))
    func yamllintFindsNoErrors() async throws {
        let files = RepositoryFiles.yamlFiles()
        let run = try await ProcessRun.run("yamllint", ["-f", "parsable", "-d", "relaxed"] + files, in: Sample.repositoryRoot)
        let errors = run.output.split(separator: "\n").filter { $0.contains("[error]") }
        #expect(run.status == 0 && errors.isEmpty, "yamllint -d relaxed:\n\(run.transcript)")
    }

    @Test(.io, .enabled(if: ExternalTool.isAvailable("shellcheck"), "needs shellcheck (apt install shellcheck)"))
    func shellcheckPassesOnTheScripts() async throws {
        let scripts = try RepositoryFiles.files(in: "scripts", endingWith: ".sh").map { "scripts/\($0)" }
        #expect(!scripts.isEmpty)
        let run = try await ProcessRun.run("shellcheck", scripts, in: Sample.repositoryRoot)
        #expect(run.status == 0, "shellcheck \(scripts.joined(separator: " ")):\n\(run.transcript)")
    }
}
