// A fake mail server for the e2e run: a minimal SMTP listener that keeps every message it
// receives, and a small HTTP endpoint the specs read them from (`GET /messages?to=&since=`).
// Both bind 127.0.0.1 on free ports. run.mjs starts one and passes the servers the SMTP port
// (STRIKELINE_E2E_SMTP_PORT) and the specs the HTTP address (STRIKELINE_E2E_MAIL_URL).
import { createServer as createHttpServer } from "node:http";
import { createServer as createTcpServer } from "node:net";

/** Most messages kept; the oldest go first. */
const MAX_MESSAGES = 5_000;
/** Largest message accepted, in bytes (the server's mails are a few kB). */
const MAX_BYTES = 1_000_000;

/** Undoes quoted-printable: soft line breaks and =XX escapes (bytes, read as UTF-8). */
function decodeQuotedPrintable(text) {
  const joined = text.replace(/=\r?\n/g, "");
  const bytes = [];
  for (let i = 0; i < joined.length; i += 1) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i], "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** Decodes an RFC 2047 encoded word (`=?utf-8?b?…?=`, `=?utf-8?q?…?=`) in a header. */
function decodeHeader(value) {
  return value.replace(/=\?([^?]+)\?([bBqQ])\?([^?]*)\?=/g, (_, _charset, kind, data) =>
    kind.toLowerCase() === "b" ? Buffer.from(data, "base64").toString("utf8") : decodeQuotedPrintable(data.replace(/_/g, " ")),
  );
}

/** Splits a message into lower-cased headers (unfolded) and its decoded text body. */
export function parseMessage(raw) {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? "" : raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const headers = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const encoding = (headers["content-transfer-encoding"] ?? "7bit").toLowerCase();
  const text =
    encoding === "base64"
      ? Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8")
      : encoding === "quoted-printable"
        ? decodeQuotedPrintable(body)
        : body;
  return { headers, subject: decodeHeader(headers.subject ?? ""), text: text.replace(/\r\n/g, "\n") };
}

/** The bare address of `<a@b>` or `a@b`, lower-cased. */
function addressOf(value) {
  const match = value.match(/<([^>]*)>/);
  return (match ? match[1] : value).trim().toLowerCase();
}

/**
 * Starts the fake. Resolves with `{ smtpPort, url, messages, stop }`; `messages` is the live
 * list of `{ id, receivedAt, from, to: string[], subject, text }`.
 */
export async function startMailServer() {
  const messages = [];
  let nextId = 1;
  const sockets = new Set();

  const smtp = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    socket.setEncoding("latin1");
    const reply = (line) => socket.write(`${line}\r\n`);
    let envelope = { from: "", to: [] };
    let inData = false;
    let data = "";
    let pending = "";

    const finishData = () => {
      // Dot-stuffing: a line that starts with ".." was sent as "." followed by the line.
      const raw = Buffer.from(data.replace(/(^|\r\n)\.\./g, "$1."), "latin1").toString("utf8");
      const parsed = parseMessage(raw);
      messages.push({
        id: nextId,
        receivedAt: Date.now(),
        from: envelope.from,
        to: envelope.to,
        subject: parsed.subject,
        text: parsed.text,
      });
      nextId += 1;
      if (messages.length > MAX_MESSAGES) messages.shift();
      envelope = { from: "", to: [] };
      data = "";
      inData = false;
      reply("250 2.0.0 OK: queued");
    };

    const command = (line) => {
      const verb = line.split(" ", 1)[0].toUpperCase();
      const arg = line.slice(verb.length).trim();
      switch (verb) {
        case "EHLO":
          socket.write("250-localhost greets you\r\n250 8BITMIME\r\n");
          break;
        case "HELO":
          reply("250 localhost");
          break;
        case "MAIL":
          envelope = { from: addressOf(arg.replace(/^FROM:/i, "").split(/\s+/)[0] ?? ""), to: [] };
          reply("250 2.1.0 OK");
          break;
        case "RCPT":
          envelope.to.push(addressOf(arg.replace(/^TO:/i, "").split(/\s+/)[0] ?? ""));
          reply("250 2.1.5 OK");
          break;
        case "DATA":
          if (envelope.to.length === 0) {
            reply("503 5.5.1 RCPT first");
          } else {
            inData = true;
            data = "";
            reply("354 End data with <CR><LF>.<CR><LF>");
          }
          break;
        case "RSET":
          envelope = { from: "", to: [] };
          reply("250 2.0.0 OK");
          break;
        case "NOOP":
          reply("250 2.0.0 OK");
          break;
        case "QUIT":
          reply("221 2.0.0 Bye");
          socket.end();
          break;
        default:
          reply("502 5.5.2 Command not implemented");
      }
    };

    socket.on("data", (chunk) => {
      pending += chunk;
      for (;;) {
        if (inData) {
          // The end of DATA is a line holding only "."; the body before it keeps its CRLFs.
          const end = pending.startsWith(".\r\n") && data === "" ? 0 : pending.indexOf("\r\n.\r\n");
          if (end === -1) {
            if (data.length + pending.length > MAX_BYTES) {
              reply("552 5.3.4 Message too big");
              socket.end();
              return;
            }
            return;
          }
          data += end === 0 ? "" : pending.slice(0, end);
          pending = pending.slice(end === 0 ? 3 : end + 5);
          finishData();
          continue;
        }
        const eol = pending.indexOf("\r\n");
        if (eol === -1) return;
        const line = pending.slice(0, eol);
        pending = pending.slice(eol + 2);
        command(line);
      }
    });
    reply("220 localhost ESMTP strikeline-e2e-fake");
  });

  const http = createHttpServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method !== "GET" || url.pathname !== "/messages") {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
      return;
    }
    const to = url.searchParams.get("to")?.trim().toLowerCase();
    const since = Number(url.searchParams.get("since") ?? 0);
    const found = messages.filter((m) => (!to || m.to.includes(to)) && m.receivedAt >= since);
    res.writeHead(200, { "Content-Type": "application/json", "Cache-Control": "no-store" }).end(JSON.stringify(found));
  });

  const listen = (server) =>
    new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve(server.address().port));
    });
  const smtpPort = await listen(smtp);
  const httpPort = await listen(http);

  const stop = async () => {
    for (const socket of sockets) socket.destroy();
    await Promise.all([new Promise((r) => smtp.close(() => r())), new Promise((r) => http.close(() => r()))]);
  };
  return { smtpPort, url: `http://127.0.0.1:${httpPort}`, messages, stop };
}
