import RendererProvider
import RendererServerHTTP

extension ServedDocument {
    /// Starts reading every page with text recognition (``RecognitionJob``) through
    /// `rendererID`'s documents, unless a reading runs or has read them all: the server's
    /// recognition (`--ocr`) or, when it has none, the one readers may ask for, from then on
    /// used by every request on the file. Answers the reading's status and whether this call
    /// started it; throws `unsupported` when the server reads no scans.
    func startRecognition(rendererID: String) async throws -> (status: RecognitionJob.Status, started: Bool) {
        _ = currentVersion()
        if let recognitionJob, [.running, .done].contains(recognitionJob.current.state) { return (recognitionJob.current, false) }
        if textRecognition == nil {
            guard let onRequest = Self.sharing(context.configuration.textRecognitionOnRequest) else {
                throw RendererError(.unsupported, "this server reads no scanned pages: it was started without text recognition")
            }
            textRecognition = onRequest
            for pool in openPools { await pool.useTextRecognition(onRequest) }
        }
        let documents = pool(rendererID)
        let pageCount = try await documents.run(timeLimit: context.configuration.timeLimit) { document, _ in document.pageCount }
        // Another request may have started one while this one waited, or the file changed.
        if let recognitionJob, [.running, .done].contains(recognitionJob.current.state) { return (recognitionJob.current, false) }
        guard let store = textRecognition?.store else { throw RendererError(.cancelled, "the document changed while the request waited; retry it") }
        let job = RecognitionJob(pageCount: pageCount, pool: documents, store: store, context: context)
        recognitionJob = job
        return (job.current, true)
    }

    /// What the reading has done: the last one's status for the file's version, or an idle
    /// one (with the file's page count through `rendererID`) when none was asked for.
    func recognitionStatus(rendererID: String) async throws -> RecognitionJob.Status {
        _ = currentVersion()
        if let recognitionJob { return recognitionJob.current }
        let pageCount = try await pool(rendererID).run(timeLimit: context.configuration.timeLimit) { document, _ in document.pageCount }
        let available = textRecognition != nil || context.configuration.textRecognitionOnRequest != nil
        return RecognitionJob.Status(
            state: .idle, pagesDone: 0, pageCount: pageCount, pagesRecognized: textRecognition?.store?.recognizedCount ?? 0, available: available)
    }

    /// Cancels the reading that runs, if one does, and answers its status.
    func cancelRecognition(rendererID: String) async throws -> RecognitionJob.Status {
        recognitionJob?.cancel()
        return try await recognitionStatus(rendererID: rendererID)
    }
}
