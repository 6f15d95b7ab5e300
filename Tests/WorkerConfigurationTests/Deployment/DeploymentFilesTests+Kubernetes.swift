import APNsClient
import Foundation
import Testing
import TestSupport
import WorkerConfiguration

extension DeploymentFilesTests {
    /// `deploy/kubernetes`: read and cross-checked, never applied (no cluster here).
    @Suite(.io, .enabled(if: ExternalTool.hasPythonYAML, "needs python3 with PyYAML (apt install python3-yaml)"))
    struct Kubernetes {
        static func seconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }

        @Test func kustomizationListsEveryManifestInTheFolder() throws {
            let manifests = try KubernetesManifests()
            let listed = manifests.kustomization["resources"].strings
            let present = try RepositoryFiles.files(in: KubernetesManifests.folder, endingWith: ".yaml").filter { $0 != "kustomization.yaml" }
            #expect(listed.sorted() == present)
            let kinds = Set(manifests.resources.compactMap { $0["kind"].string })
            #expect(kinds == ["Namespace", "ConfigMap", "Secret", "Deployment", "Service", "PodDisruptionBudget", "ScaledObject", "TriggerAuthentication"])
            #expect(manifests.kustomization["images"][0]["name"].string == (try manifests.container["image"].string))
        }

        @Test func everythingLivesInTheApnsNamespace() throws {
            let manifests = try KubernetesManifests()
            #expect(try manifests.one("Namespace")["metadata"]["name"].string == "apns")
            for resource in manifests.resources where resource["kind"].string != "Namespace" {
                #expect(resource["metadata"]["namespace"].string == "apns", "\(resource["kind"].string ?? "?") \(resource["metadata"]["name"].string ?? "?")")
            }
        }

        @Test func theConfigMapsConfigurationLoadsAndUsesApplesHosts() throws {
            let manifests = try KubernetesManifests()
            let settings = try manifests.settings
            #expect(settings.apns.endpoint == nil, "production: no endpoint override, Apple's hosts")
            #expect(settings.apns.trustSystemStore)
            #expect(settings.apns.caFile == nil)
            #expect(settings.amqp.passwordFile != nil, "the broker password comes from a Secret file")
            #expect(!settings.credentials.isEmpty)
            #expect(settings.metrics.port == 9090)
            #expect(settings.log.format == .json)
        }

        /// Every file the configuration names, with the Secret key that must provide it.
        static func secretFiles(_ settings: WorkerSettings) -> [String] {
            var files = [settings.amqp.passwordFile].compactMap(\.self)
            for credential in settings.credentials {
                switch credential.kind {
                case let .token(_, _, keyFile, _, _): files.append(keyFile)
                case let .pkcs12(file, passwordFile): files += [file] + [passwordFile].compactMap(\.self)
                case let .pem(certificateFile, keyFile): files += [certificateFile, keyFile]
                }
            }
            return files
        }

        @Test func everySecretFileTheConfigurationNamesIsInTheMountedSecret() throws {
            let manifests = try KubernetesManifests()
            let files = Self.secretFiles(try manifests.settings)
            #expect(!files.isEmpty)
            for file in files {
                #expect(file.hasPrefix("/var/run/secrets/apns/"), "\(file) should be under /var/run/secrets/apns")
                let mount = try #require(try manifests.volumeMount(containing: file), "nothing is mounted at \(file)")
                #expect(mount["readOnly"].bool == true)
                let volume = try #require(try manifests.podSpec["volumes"].array.first { $0["name"] == mount["name"] })
                let secret = try manifests.one("Secret", named: volume["secret"]["secretName"].string)
                let key = String(file.dropFirst((mount["mountPath"].string ?? "").count + 1))
                #expect(!secret["stringData"][key].isNull || !secret["data"][key].isNull, "Secret has no key \(key) for \(file)")
            }
        }

        @Test func theSecretIsOwnerReadOnlyAndFsGroupIsThePodsOwnGroup() throws {
            let manifests = try KubernetesManifests()
            let secretVolumes = try manifests.podSpec["volumes"].array.filter { !$0["secret"].isNull }
            #expect(!secretVolumes.isEmpty)
            for volume in secretVolumes {
                #expect(volume["secret"]["defaultMode"].int == 0o400, "defaultMode should be 0400 (256)")
            }
            // With an fsGroup the kubelet adds group read (0440); without one, uid 10001 could not read a
            // root-owned 0400 file. The worker accepts that group read only from its own group
            // (KeyFileAccess), so fsGroup must be runAsGroup, and no credential needs the override.
            let fsGroup = try manifests.podSpec["securityContext"]["fsGroup"].int
            #expect(fsGroup == Int(DeploymentFilesTests.Dockerfile.uid))
            #expect(fsGroup == (try manifests.podSpec["securityContext"]["runAsGroup"].int))
            for credential in try manifests.settings.credentials {
                if case let .token(_, _, _, allowInsecure, _) = credential.kind {
                    #expect(!allowInsecure, "\(credential.name): a Secret under fsGroup needs no insecure-permissions override")
                }
            }
        }

        @Test func theWorkerDownAlertFindsThePodsByTheirLabel() throws {
            // Scraped through the pod annotations, a worker has no `apns-worker` job: the rule must
            // match the label the usual labelmap makes of the pod's app.kubernetes.io/name.
            let manifests = try KubernetesManifests()
            let name = try #require(try manifests.deployment["spec"]["template"]["metadata"]["labels"]["app.kubernetes.io/name"].string)
            let rules = try RepositoryFiles.text("deploy/prometheus/apns-worker.rules.yaml")
            #expect(rules.contains(#"up{app_kubernetes_io_name="\#(name)"} == 0"#), "APNsWorkerDown does not match pods labelled \(name)")
            #expect(try manifests.deployment["spec"]["template"]["metadata"]["annotations"]["prometheus.io/scrape"].string == "true")
        }

        @Test func terminationGraceOutlastsPreStopTheDrainAndTheLastAnswers() throws {
            let manifests = try KubernetesManifests()
            let grace = try #require(try manifests.podSpec["terminationGracePeriodSeconds"].int)
            let preStop = try manifests.container["lifecycle"]["preStop"]["exec"]["command"].strings
            #expect(preStop.first == "/bin/sleep")
            let sleep = try #require(preStop.count == 2 ? Double(preStop[1]) : nil, "preStop should be /bin/sleep SECONDS")
            let drain = Self.seconds(try manifests.settings.worker.shutdownTimeout)
            // Past the drain's timeout, requests already at APNs get up to the request timeout to be answered.
            let lastAnswers = Self.seconds(try manifests.settings.apns.requestTimeout)
            #expect(
                Double(grace) > sleep + drain + lastAnswers,
                "terminationGracePeriodSeconds \(grace) ≤ preStop \(sleep)s + shutdown_timeout \(drain)s + request_timeout \(lastAnswers)s"
            )
        }

        @Test func probesHitTheHealthEndpointsOnTheMetricsPort() throws {
            let manifests = try KubernetesManifests()
            let container = try manifests.container
            let metricsPort = try #require(try manifests.settings.metrics.port)
            let ports = container["ports"].array
            let probes = ["livenessProbe": "/health/live", "readinessProbe": "/health/ready"]
            for (probe, path) in probes {
                let httpGet = container[probe]["httpGet"]
                #expect(httpGet["path"].string == path, "\(probe) should GET \(path)")
                let port = httpGet["port"].int ?? ports.first { $0["name"] == httpGet["port"] }?["containerPort"].int
                #expect(port == metricsPort, "\(probe) should use metrics.port \(metricsPort)")
            }
            let annotations = try manifests.deployment["spec"]["template"]["metadata"]["annotations"]
            #expect(annotations["prometheus.io/scrape"].string == "true")
            #expect(annotations["prometheus.io/port"].string == String(metricsPort))
            #expect(annotations["prometheus.io/path"].string == "/metrics")
        }

        @Test func runsAsTheImagesNonRootUserWithNothingWritable() throws {
            let manifests = try KubernetesManifests()
            let pod = try manifests.podSpec["securityContext"]
            let container = try manifests.container["securityContext"]
            let uid = Int(DeploymentFilesTests.Dockerfile.uid)
            #expect(pod["runAsNonRoot"].bool == true || container["runAsNonRoot"].bool == true)
            #expect((container["runAsUser"].int ?? pod["runAsUser"].int) == uid, "runAsUser should be the image's USER")
            #expect(container["readOnlyRootFilesystem"].bool == true)
            #expect(container["allowPrivilegeEscalation"].bool == false)
            #expect(container["capabilities"]["drop"].strings == ["ALL"])
            // No writable volume either: the worker writes no file.
            #expect(try manifests.podSpec["volumes"].array.allSatisfy { $0["emptyDir"].isNull })
            #expect(try manifests.container["args"].strings == ["run", "--config", "/etc/apns-worker/worker.yaml"])
        }

        @Test func requestsAndLimitsAreSet() throws {
            let resources = try KubernetesManifests().container["resources"]
            for bound in ["requests", "limits"] {
                for resource in ["cpu", "memory"] {
                    #expect(resources[bound][resource].string != nil, "resources.\(bound).\(resource) is missing")
                }
            }
        }

        @Test func theScaledObjectWatchesTheConfiguredJobsQueue() throws {
            let manifests = try KubernetesManifests()
            let settings = try manifests.settings
            let scaled = try manifests.one("ScaledObject")["spec"]
            #expect(scaled["scaleTargetRef"]["kind"].string ?? "Deployment" == "Deployment")
            #expect(scaled["scaleTargetRef"]["name"] == (try manifests.deployment["metadata"]["name"]))
            #expect(scaled["minReplicaCount"].int == 2)
            #expect(scaled["maxReplicaCount"].int == 20)
            #expect(scaled["cooldownPeriod"].int != nil)

            let trigger = try #require(scaled["triggers"].array.first { $0["type"] == .string("rabbitmq") })
            #expect(trigger["metadata"]["queueName"].string == settings.topology.jobsQueue)
            #expect(trigger["metadata"]["mode"].string == "QueueLength")
            #expect(trigger["metadata"]["value"].string == String(settings.worker.prefetch), "one prefetch of backlog per replica")
            #expect(trigger["metadata"]["host"].isNull, "the broker address (with its password) comes from a TriggerAuthentication")

            let authentication = try manifests.one("TriggerAuthentication", named: trigger["authenticationRef"]["name"].string)
            let host = try #require(authentication["spec"]["secretTargetRef"].array.first { $0["parameter"] == .string("host") })
            let secret = try manifests.one("Secret", named: host["name"].string)
            let key = try #require(host["key"].string)
            #expect(!secret["stringData"][key].isNull || !secret["data"][key].isNull, "Secret has no key \(key)")
        }

        @Test func aDisruptionBudgetAndAMetricsServiceSelectTheWorkers() throws {
            let manifests = try KubernetesManifests()
            let podLabels = try manifests.deployment["spec"]["template"]["metadata"]["labels"].members
            let budget = try manifests.one("PodDisruptionBudget")["spec"]
            #expect(budget["maxUnavailable"].int == 1 || budget["minAvailable"].int == 1)
            for (key, value) in budget["selector"]["matchLabels"].members {
                #expect(podLabels[key] == value, "the PodDisruptionBudget selects \(key)=\(value), which the pods lack")
            }
            let service = try manifests.one("Service")["spec"]
            #expect(service["type"].string == "ClusterIP")
            #expect(!service["selector"].members.isEmpty)
            for (key, value) in service["selector"].members {
                #expect(podLabels[key] == value, "the Service selects \(key)=\(value), which the pods lack")
            }
            #expect(service["ports"][0]["port"].int == 9090)
        }

        @Test(.enabled(if: ExternalTool.isAvailable("kubectl"), "kubectl is not installed; `kubectl kustomize` is skipped"))
        func kustomizeRendersTheManifests() async throws {
            let run = try await ProcessRun.run("kubectl", ["kustomize", KubernetesManifests.folder], in: Sample.repositoryRoot)
            #expect(run.status == 0, "kubectl kustomize:\n\(run.transcript)")
            let image = try KubernetesManifests().kustomization["images"][0]
            let rendered = "\(image["newName"].string ?? ""):\(image["newTag"].string ?? "")"
            #expect(run.output.contains("image: \(rendered)"), "the kustomization should set the image to \(rendered)")
        }
    }
}
