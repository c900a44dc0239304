import Foundation
import HTTPTypes
import Testing
import TestSupport

/// `GET /api/metrics`: what the server measured of itself, in Prometheus' text format, read
/// back by the Prometheus Python client's own parser (the independent witness): each request
/// counted once under the route it matched, refusals included; the page cache's misses and
/// hits; the engines' work and the error it ended with; the gauges. A stranger gets a 401 and no figure, and cannot grow
/// the series by asking for paths no route has.
@Suite struct ServerMetricsTests {
    @Test func theServerCountsWhatItDidInPrometheusFormat() async throws {
        let harness = try ServerHarness()
        let (anonymous, exposition) = try await harness.run { client in
            let anonymous = try await client.execute(uri: "/api/metrics", method: .get)
            let image = documentPath("text.pdf") + "/pages/0/image?dpi=36"
            for _ in 0..<2 { #expect(try await client.get(image).status == .ok) }
            #expect(try await client.get(documentPath("text.pdf") + "/pages/99/image?dpi=36").status == .notFound)
            #expect(try await client.get(documentPath("missing.pdf")).status == .notFound)
            for probe in ["/api/\(UUID().uuidString)", "/\(UUID().uuidString)/x", "/api/documents/x/\(UUID().uuidString)/y"] {
                #expect(try await client.get(probe).status == .notFound)
            }
            return (anonymous, try await client.get("/api/metrics"))
        }
        #expect(anonymous.status == .unauthorized && !anonymous.body.contains("hostapp_"))
        #expect(exposition.status == .ok && exposition.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")

        let samples = try await Self.parsed(exposition.data, in: harness.folder)
        func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
            samples.first { sample in sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value } }?.value
        }
        let imageRoute = try #require(samples.first { $0.name == "hostapp_http_requests_total" && $0.labels["route"]?.hasSuffix("/image") == true }?
            .labels["route"], "\(samples)")
        #expect(imageRoute.hasPrefix("/api/documents/") && !imageRoute.contains("text.pdf"), "the route's template, not the path asked for: \(imageRoute)")
        #expect(value("hostapp_http_requests_total", ["route": imageRoute, "method": "GET", "status": "200"]) == 2)
        #expect(value("hostapp_http_request_duration_seconds_count", ["route": imageRoute, "method": "GET"]) == 3)
        #expect(value("hostapp_http_requests_total", ["route": "/api/metrics", "status": "401"]) == 1)
        // Each unknown path is counted as unrouted, not as a series of its own.
        #expect(value("hostapp_http_requests_total", ["route": "unrouted", "status": "404"]) == 3)
        let routes = Set(samples.compactMap { $0.labels["route"] })
        #expect(!routes.contains { $0.contains("-") && $0.count > 30 }, "a path asked for became a label: \(routes.sorted())")
        // The first drawing and the page past the end were looked for; the second drawing found.
        #expect(value("hostapp_page_cache_misses_total") == 2 && value("hostapp_page_cache_hits_total") == 1)
        #expect(value("hostapp_http_requests_total", ["route": imageRoute, "method": "GET", "status": "404"]) == 1)
        let errors = samples.filter { $0.name == "hostapp_engine_errors_total" }
        #expect(errors.count == 1 && errors.first?.labels["code"] == "page-out-of-range" && errors.first?.value == 1, "\(errors)")
        let engineWork = samples.filter { $0.name == "hostapp_engine_work_seconds_count" }
        #expect(!engineWork.isEmpty && engineWork.allSatisfy { $0.labels["renderer"] != nil } && engineWork.map(\.value).reduce(0, +) >= 1)
        #expect(value("hostapp_engine_queue_depth") == 0 && value("hostapp_open_websockets") == 0)
    }

    struct Sample: Decodable {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    /// The samples of a Prometheus text exposition, as `prometheus_client`'s parser reads it.
    static func parsed(_ exposition: Data, in folder: String) async throws -> [Sample] {
        let file = folder + "/metrics.txt"
        try exposition.write(to: URL(fileURLWithPath: file))
        let script = """
            import json, sys
            from prometheus_client.parser import text_string_to_metric_families
            samples = [{"name": s.name, "labels": s.labels, "value": s.value}
                       for family in text_string_to_metric_families(open(sys.argv[1]).read()) for s in family.samples]
            print(json.dumps(samples))
            """
        let result = try await Tool.run("python3", ["-c", script, file])
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONDecoder().decode([Sample].self, from: result.stdout)
    }
}
