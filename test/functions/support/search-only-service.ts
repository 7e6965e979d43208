import { RiskEngine } from "../../../src/functions/engine/engine";
import { setDefaultEngine } from "../../../src/functions/engine/default-engine";
import { installCustomFunctionsStub } from "./custom-functions-stub";
import { searchAnswer, sendJson, startFakeService, type FakeService } from "./fake-service";

/**
 * For tests that call the RISK functions as Excel does: a small service on 127.0.0.1 that answers
 * searches and 404 for everything else, the custom-functions stub, and the default engine on that
 * service (no retries), set up before the file's tests and taken down after them (`afterEach` of
 * the caller's own runs first). Answers a getter of the service, for the requests it saw.
 */
export function useSearchOnlyService(): () => FakeService {
  let service: FakeService;
  let uninstall: () => void;
  beforeAll(async () => {
    uninstall = installCustomFunctionsStub();
    service = await startFakeService((request, res) => {
      if (request.path === "/api/search") {
        return sendJson(res, searchAnswer(Number(request.query.get("lat")), Number(request.query.get("lng"))));
      }
      sendJson(res, { errors: ["not found"] }, 404);
    });
    setDefaultEngine(new RiskEngine({ connection: service.connection, maxRetries: 0 }));
  });
  afterAll(async () => {
    setDefaultEngine(undefined);
    uninstall();
    await service.close();
  });
  return () => service;
}
