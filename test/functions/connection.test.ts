import { EMULATOR_CONNECTION, ConfigurationError } from "../../src/api";
import {
  defaultConnection,
  getConnection,
  isDefaultConnection,
  loadConnection,
  memoryStorage,
  onConnectionChange,
  resetConnection,
  saveConnection,
  useConnectionStorage,
  type ConnectionStorage,
} from "../../src/shared/connection";
import { DEMO_API_KEY, DEMO_PROJECT } from "../../src/shared/vocabulary";

/** The connection store: default to the emulator, persist outside the workbook, announce changes. */

const custom = {
  baseUrl: "https://risk.example.com/",
  natureUrl: "https://nature.example.com",
  apiKey: "  secret-key-123 ",
  project: "ec-DEMO",
};

let storage: ConnectionStorage;
beforeEach(() => {
  storage = memoryStorage();
  useConnectionStorage(storage);
});

afterEach(() => {
  delete (globalThis as { __DEFAULT_SERVICE_URL__?: string }).__DEFAULT_SERVICE_URL__;
  delete (globalThis as { location?: unknown }).location;
});

test("with nothing stored the functions use the local emulator's demo connection", async () => {
  expect(await loadConnection()).toEqual(EMULATOR_CONNECTION);
  expect(getConnection()).toEqual(EMULATOR_CONNECTION);
  expect(isDefaultConnection()).toBe(true);
});

test("a build-time default URL relative to the page is resolved against the page's origin", () => {
  (globalThis as { __DEFAULT_SERVICE_URL__?: string }).__DEFAULT_SERVICE_URL__ = "/emulator";
  (globalThis as { location?: unknown }).location = { origin: "https://localhost:3000" };
  expect(defaultConnection()).toEqual({
    baseUrl: "https://localhost:3000/emulator",
    natureUrl: "https://localhost:3000/emulator/nature",
    apiKey: DEMO_API_KEY,
    project: DEMO_PROJECT,
  });
  expect(getConnection().baseUrl).toBe("https://localhost:3000/emulator");
});

test("a saved connection is normalized, persisted, announced, and read back after a reload", async () => {
  const seen: string[] = [];
  const unsubscribe = onConnectionChange((config) => seen.push(config.baseUrl));
  const saved = await saveConnection(custom);
  expect(saved).toEqual({
    baseUrl: "https://risk.example.com",
    natureUrl: "https://nature.example.com",
    apiKey: "secret-key-123",
    project: "ec-DEMO",
  });
  expect(getConnection()).toEqual(saved);
  expect(isDefaultConnection()).toBe(false);
  expect(seen).toEqual(["https://risk.example.com"]);

  // A new page: the module's memory is gone, the storage is not.
  useConnectionStorage(storage);
  expect(isDefaultConnection()).toBe(true);
  expect(await loadConnection()).toEqual(saved);
  expect(seen).toEqual(["https://risk.example.com", "https://risk.example.com"]);

  unsubscribe();
  await resetConnection();
  expect(getConnection()).toEqual(EMULATOR_CONNECTION);
  expect(seen.length).toBe(2);
  expect(await storage.getItem("climate-risk.connection")).toBeNull();
});

test("an unusable connection is refused before anything is stored", async () => {
  await expect(saveConnection({ ...custom, baseUrl: "http://risk.example.com" })).rejects.toBeInstanceOf(
    ConfigurationError,
  );
  await expect(saveConnection({ ...custom, apiKey: " " })).rejects.toBeInstanceOf(ConfigurationError);
  expect(await storage.getItem("climate-risk.connection")).toBeNull();
  expect(isDefaultConnection()).toBe(true);
});

test("a path on the add-in's own host (a same-origin reverse proxy) is saved as that host's URL", async () => {
  const paths = { ...custom, baseUrl: "/risk-api/", natureUrl: "/risk-nature" };
  // Outside a page there is no host to resolve a path against: said, not guessed.
  await expect(saveConnection(paths)).rejects.toThrow(/is a path, which needs the add-in's own address/);
  (globalThis as { location?: unknown }).location = { origin: "https://addin.example.com" };
  const saved = await saveConnection(paths);
  expect(saved.baseUrl).toBe("https://addin.example.com/risk-api");
  expect(saved.natureUrl).toBe("https://addin.example.com/risk-nature");
  // The same https rule: an add-in served over plain http from another machine may not send the key.
  (globalThis as { location?: unknown }).location = { origin: "http://addin.example.com" };
  await expect(saveConnection(paths)).rejects.toThrow(/must use https:\/\/ for addin.example.com/);
  // "//host" is another host, not a path of this one.
  await expect(saveConnection({ ...paths, baseUrl: "//risk.example.com" })).rejects.toBeInstanceOf(ConfigurationError);
});

test("corrupt stored data falls back to the default instead of breaking every cell", async () => {
  await storage.setItem("climate-risk.connection", "{not json");
  expect(await loadConnection()).toEqual(EMULATOR_CONNECTION);
  await storage.setItem("climate-risk.connection", JSON.stringify({ ...custom, baseUrl: "ftp://x" }));
  expect(await loadConnection()).toEqual(EMULATOR_CONNECTION);
});

test("OfficeRuntime.storage is preferred when it exists, and nothing is logged", async () => {
  const office = memoryStorage();
  (globalThis as { OfficeRuntime?: unknown }).OfficeRuntime = { storage: office };
  const log = jest.spyOn(console, "log").mockImplementation(() => undefined);
  const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined);
  try {
    useConnectionStorage(undefined);
    await saveConnection(custom);
    expect(JSON.parse((await office.getItem("climate-risk.connection"))!).apiKey).toBe("secret-key-123");
    expect(log).not.toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
  } finally {
    delete (globalThis as { OfficeRuntime?: unknown }).OfficeRuntime;
    log.mockRestore();
    warn.mockRestore();
  }
});
