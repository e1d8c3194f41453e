// tls-front.mjs: a TLS endpoint on 127.0.0.1 in front of a local plain-HTTP
// server (the fake provider), for the tests and the benchmark; started by
// tests/tools/tls-front, which makes its throwaway certificates.
//
//   node tls-front.mjs DIR BACKEND-PORT [pipe|h2]
//
// pipe (default): every TLS connection is piped to a connection of its own
// to the backend, offering HTTP/1.1 only, so the backend's connection count
// is the clients'.  h2: HTTP/2 is offered too, and each request is passed on
// over HTTP/1.1 with its version logged in DIR/versions.  DIR/handshakes
// counts the TLS handshakes.  Prints the port once listening; exits after
// 60 s without a connection or 600 s in all.
import fs from "node:fs";
import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import tls from "node:tls";

const [dir, backend, mode = "pipe"] = process.argv.slice(2);
const opts = { cert: fs.readFileSync(`${dir}/server.pem`), key: fs.readFileSync(`${dir}/server.key`) };
let handshakes = 0, idle;
const touch = () => {
  clearTimeout(idle);
  idle = setTimeout(() => process.exit(0), 60000);
};
setTimeout(() => process.exit(0), 600000).unref();

let server;
if (mode === "h2") {
  const agent = new http.Agent({ keepAlive: true });
  server = http2.createSecureServer({ ...opts, allowHTTP1: true }, (req, res) => {
    fs.appendFileSync(`${dir}/versions`, `${req.httpVersion} ${req.method} ${req.url}\n`);
    const headers = {};
    for (const [k, v] of Object.entries(req.headers))
      if (!k.startsWith(":") && k !== "connection" && k !== "host") headers[k] = v;
    const up = http.request({ host: "127.0.0.1", port: backend, method: req.method, path: req.url, headers, agent }, (ur) => {
      const h = { ...ur.headers };
      for (const k of ["connection", "keep-alive", "transfer-encoding"]) delete h[k];
      res.writeHead(ur.statusCode, h);
      ur.pipe(res);
    });
    up.on("error", () => res.destroy());
    req.pipe(up);
  });
} else {
  server = tls.createServer({ ...opts, ALPNProtocols: ["http/1.1"] }, (sock) => {
    const back = net.connect(Number(backend), "127.0.0.1");
    back.setNoDelay(true);
    sock.setNoDelay(true);
    const end = () => { sock.destroy(); back.destroy(); };
    sock.on("error", end);
    back.on("error", end);
    sock.pipe(back).pipe(sock);
  });
}
server.on("secureConnection", () => {
  handshakes++;
  fs.writeFileSync(`${dir}/handshakes`, `${handshakes}\n`);
});
server.on("connection", touch);
server.listen(0, "127.0.0.1", () => {
  touch();
  console.log(server.address().port);
});
