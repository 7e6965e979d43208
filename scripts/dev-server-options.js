/**
 * webpack-dev-server settings for the add-in's pages: https on localhost:3000 (certificate from
 * scripts/certificate.mjs via DEV_CERT_FILE/DEV_KEY_FILE, else webpack's own self-signed one), the
 * emulator proxied under /emulator (so the pages reach it on their own origin, without CORS or
 * mixed content), and office.js served from node_modules so the pages load offline.
 *
 * Settings: DEV_SERVER_PORT (3000), EMULATOR_URL (http://127.0.0.1:4010).
 */
const fs = require("node:fs");
const path = require("node:path");

function devServerOptions() {
  const certFile = process.env.DEV_CERT_FILE;
  const keyFile = process.env.DEV_KEY_FILE;
  const https =
    certFile && keyFile && fs.existsSync(certFile) && fs.existsSync(keyFile)
      ? { type: "https", options: { cert: fs.readFileSync(certFile), key: fs.readFileSync(keyFile) } }
      : { type: "https" };
  const emulatorUrl = process.env.EMULATOR_URL || "http://127.0.0.1:4010";
  return {
    host: "localhost",
    port: Number(process.env.DEV_SERVER_PORT || 3000),
    server: https,
    hot: false,
    liveReload: false,
    client: false,
    headers: { "Access-Control-Allow-Origin": "*" },
    static: [
      {
        directory: path.resolve(__dirname, "..", "node_modules/@microsoft/office-js/dist"),
        publicPath: "/office-js",
        serveIndex: false,
        watch: false,
      },
    ],
    proxy: [{ context: ["/emulator"], target: emulatorUrl, pathRewrite: { "^/emulator": "" }, changeOrigin: true }],
    devMiddleware: { writeToDisk: false },
  };
}

module.exports = { devServerOptions };
