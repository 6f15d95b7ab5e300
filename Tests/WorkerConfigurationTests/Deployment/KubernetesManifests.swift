import Foundation
import Testing
import WorkerConfiguration

/// Every resource under `deploy/kubernetes`, as kustomization.yaml lists them.
struct KubernetesManifests {
    static let folder = "deploy/kubernetes"

    let kustomization: StructuredValue
    /// Resources in file order, each document of a multi-document file on its own.
    let resources: [StructuredValue]

    init() throws {
        kustomization = try RepositoryFiles.yamlDocument("\(Self.folder)/kustomization.yaml")
        let files = kustomization["resources"].strings.map { "\(Self.folder)/\($0)" }
        resources = try RepositoryFiles.yamlDocuments(of: files).flatMap(\.self)
    }

    func all(_ kind: String) -> [StructuredValue] {
        resources.filter { $0["kind"].string == kind }
    }

    /// The one resource of `kind` (named `name`, if given); records an issue if there is not exactly one.
    func one(_ kind: String, named name: String? = nil) throws -> StructuredValue {
        let matches = all(kind).filter { name == nil || $0["metadata"]["name"].string == name }
        return try #require(matches.count == 1 ? matches.first : nil, "expected one \(kind)\(name.map { " \($0)" } ?? ""), found \(matches.count)")
    }

    var deployment: StructuredValue { get throws { try one("Deployment") } }
    var podSpec: StructuredValue { get throws { try deployment["spec"]["template"]["spec"] } }
    var container: StructuredValue { get throws { try podSpec["containers"][0] } }

    /// The worker's configuration as the ConfigMap carries it: the file the container's `--config` names.
    var configurationText: String {
        get throws {
            let path = try #require(configPath)
            let mount = try #require(try volumeMount(containing: path), "no volume is mounted at \(path)")
            let volume = try #require(try podSpec["volumes"].array.first { $0["name"] == mount["name"] })
            let configMap = try one("ConfigMap", named: volume["configMap"]["name"].string)
            let key = String(path.dropFirst((mount["mountPath"].string ?? "").count).drop { $0 == "/" })
            return try #require(configMap["data"][key].string, "ConfigMap has no key \(key)")
        }
    }

    var settings: WorkerSettings {
        get throws { try WorkerSettingsLoader.load(yaml: configurationText, environment: [:]) }
    }

    /// The path after `--config` in the container's args.
    var configPath: String? {
        get throws {
            let arguments = try container["args"].strings
            return arguments.firstIndex(of: "--config").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
        }
    }

    /// The container's volume mount whose mountPath holds `path`.
    func volumeMount(containing path: String) throws -> StructuredValue? {
        try container["volumeMounts"].array.first { mount in
            guard let mountPath = mount["mountPath"].string else { return false }
            return path.hasPrefix(mountPath.hasSuffix("/") ? mountPath : mountPath + "/")
        }
    }
}
