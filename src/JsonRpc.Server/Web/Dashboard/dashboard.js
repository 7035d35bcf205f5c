// The JSON-RPC router's dashboard: one WebSocket to the router's own endpoint, JSON-RPC 2.0 over it.
// Every second one batch asks for the counters, the methods and the clients; the form calls any method.
(function () {
  "use strict";

  const HISTORY = 60;
  const CALL_TIMEOUT_MS = 30000;
  const rpcPath = document.querySelector('meta[name="jsonrpc-endpoint"]').content || "/rpc";
  const url = new URL(rpcPath, location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";

  const $ = (id) => document.getElementById(id);
  const pending = new Map();
  const history = { calls: [], errors: [] };
  let socket = null;
  let nextId = 1;
  let previous = null;
  let timer = null;

  $("endpoint").textContent = url.href;

  function setStatus(state, text) {
    const status = $("status");
    status.className = "status " + state;
    status.dataset.state = state;
    status.textContent = text;
  }

  function connect() {
    setStatus("connecting", "connecting…");
    socket = new WebSocket(url.href);
    socket.onopen = () => {
      setStatus("open", "connected");
      poll();
      timer = setInterval(poll, 1000);
    };
    socket.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      for (const item of Array.isArray(message) ? message : [message]) {
        const waiter = item && item.id !== undefined ? pending.get(item.id) : undefined;
        if (waiter) {
          pending.delete(item.id);
          clearTimeout(waiter.timeout);
          waiter.resolve(item);
        }
      }
    };
    socket.onclose = (event) => {
      clearInterval(timer);
      for (const waiter of pending.values()) {
        clearTimeout(waiter.timeout);
        waiter.resolve({ error: { code: -32000, message: "Connection closed", data: event.reason || String(event.code) } });
      }
      pending.clear();
      setStatus("closed", "disconnected (" + event.code + ") – retrying");
      setTimeout(connect, 2000);
    };
  }

  // Sends one request (or a batch of them) and resolves with the response objects.
  function request(method, params) {
    const id = nextId++;
    const message = { jsonrpc: "2.0", id, method };
    if (params !== undefined) message.params = params;
    return { id, message, answer: expect(id) };
  }

  function expect(id) {
    return new Promise((resolve) => {
      const timeout = setTimeout(() => {
        pending.delete(id);
        resolve({ error: { code: -32001, message: "No answer within " + CALL_TIMEOUT_MS / 1000 + " s" } });
      }, CALL_TIMEOUT_MS);
      pending.set(id, { resolve, timeout });
    });
  }

  function send(payload) {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(payload));
      return true;
    }
    return false;
  }

  async function poll() {
    const stats = request("get_server_stats");
    const methods = request("list_methods");
    const clients = request("list_clients");
    if (!send([stats.message, methods.message, clients.message])) return;
    const [s, m, c] = await Promise.all([stats.answer, methods.answer, clients.answer]);
    if (s.result) showStats(s.result);
    if (m.result) showMethods(m.result);
    if (c.result) showClients(c.result);
  }

  function showStats(stats) {
    const now = performance.now();
    const calls = stats.calls_routed + stats.server_calls;
    if (previous) {
      const seconds = Math.max((now - previous.at) / 1000, 0.001);
      // The dashboard's own three polling calls are not routed or served by the host, so they do not count here.
      push(history.calls, Math.max(0, (calls - previous.calls) / seconds));
      push(history.errors, Math.max(0, (stats.errors - previous.errors) / seconds));
      $("stat-calls-rate").textContent = format(history.calls[history.calls.length - 1]);
      $("stat-errors-rate").textContent = format(history.errors[history.errors.length - 1]);
      draw();
    }
    previous = { at: now, calls, errors: stats.errors };
    $("stat-connections").textContent = stats.connections;
    $("stat-registered").textContent = stats.registered_clients;
    $("stat-methods").textContent = stats.methods;
    $("stat-pending").textContent = stats.pending_calls;
    $("stat-uptime").textContent = uptime(stats.uptime_ms);
  }

  function showMethods(methods) {
    const body = $("methods").tBodies[0];
    const rows = methods.map((entry) => {
      const row = document.createElement("tr");
      row.dataset.method = entry.method;
      const name = cell(entry.method, "mono");
      const providers = document.createElement("td");
      if (entry.server) providers.append(tag("host", "server"));
      for (const provider of entry.providers) providers.append(tag(provider));
      row.append(name, providers);
      return row;
    });
    replaceRows(body, rows, 2, "No methods yet.");
    const names = $("method-names");
    names.replaceChildren(...methods.map((entry) => Object.assign(document.createElement("option"), { value: entry.method })));
  }

  function showClients(clients) {
    const rows = clients.map((client) => {
      const row = document.createElement("tr");
      row.dataset.client = client.name;
      row.append(cell(client.name), cell(client.remote || "–", "mono"), cell(client.methods), cell(client.subscriptions));
      return row;
    });
    replaceRows($("clients").tBodies[0], rows, 4, "No registered clients.");
  }

  function replaceRows(body, rows, columns, emptyText) {
    if (rows.length === 0) {
      const row = document.createElement("tr");
      row.className = "empty";
      const only = cell(emptyText);
      only.colSpan = columns;
      row.append(only);
      rows = [row];
    }
    body.replaceChildren(...rows);
  }

  function cell(text, className) {
    const td = document.createElement("td");
    td.textContent = text;
    if (className) td.className = className;
    return td;
  }

  function tag(text, className) {
    const span = document.createElement("span");
    span.className = "tag" + (className ? " " + className : "");
    span.textContent = text;
    return span;
  }

  function push(series, value) {
    series.push(value);
    if (series.length > HISTORY) series.shift();
  }

  function format(value) {
    return value >= 100 ? Math.round(value).toString() : value.toFixed(1);
  }

  function uptime(ms) {
    const s = Math.floor(ms / 1000);
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    return h > 0 ? h + "h " + m + "m" : m > 0 ? m + "m " + (s % 60) + "s" : s + "s";
  }

  function draw() {
    const canvas = $("chart");
    const ratio = window.devicePixelRatio || 1;
    const width = canvas.clientWidth, height = canvas.clientHeight;
    if (canvas.width !== width * ratio || canvas.height !== height * ratio) {
      canvas.width = width * ratio;
      canvas.height = height * ratio;
    }
    const g = canvas.getContext("2d");
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, width, height);
    const styles = getComputedStyle(document.documentElement);
    const left = 44, right = 8, top = 8, bottom = 20;
    const max = niceMax(Math.max(1, ...history.calls, ...history.errors));
    const x = (i) => left + (i / (HISTORY - 1)) * (width - left - right);
    const y = (v) => top + (1 - v / max) * (height - top - bottom);

    g.strokeStyle = styles.getPropertyValue("--line");
    g.fillStyle = styles.getPropertyValue("--muted");
    g.font = "11px system-ui, sans-serif";
    g.lineWidth = 1;
    for (let k = 0; k <= 4; k++) {
      const value = (max * k) / 4;
      g.beginPath();
      g.moveTo(left, y(value));
      g.lineTo(width - right, y(value));
      g.stroke();
      g.fillText(format(value), 4, y(value) + 4);
    }
    g.fillText("-60 s", left, height - 4);
    g.fillText("now", width - right - 22, height - 4);

    line(g, history.calls, styles.getPropertyValue("--calls"), x, y);
    line(g, history.errors, styles.getPropertyValue("--errors"), x, y);
  }

  function line(g, series, color, x, y) {
    if (series.length === 0) return;
    const offset = HISTORY - series.length;
    g.strokeStyle = color;
    g.lineWidth = 2;
    g.beginPath();
    series.forEach((value, i) => (i === 0 ? g.moveTo(x(offset + i), y(value)) : g.lineTo(x(offset + i), y(value))));
    g.stroke();
  }

  function niceMax(value) {
    const power = Math.pow(10, Math.floor(Math.log10(value)));
    for (const step of [1, 2, 5, 10]) if (value <= step * power) return step * power;
    return 10 * power;
  }

  $("call-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const result = $("call-result");
    const method = $("call-method").value.trim();
    const text = $("call-params").value.trim();
    let params;
    if (text) {
      try {
        params = JSON.parse(text);
      } catch (error) {
        show(result, "error", "Params are not valid JSON: " + error.message);
        return;
      }
    }
    const call = request(method, params);
    if (!send(call.message)) {
      show(result, "error", "Not connected.");
      return;
    }
    $("call-submit").disabled = true;
    show(result, "", "Calling " + method + "…");
    const answer = await call.answer;
    $("call-submit").disabled = false;
    if (answer.error) show(result, "error", "Error " + answer.error.code + ": " + answer.error.message +
      (answer.error.data !== undefined ? "\n" + JSON.stringify(answer.error.data, null, 2) : ""));
    else show(result, "ok", JSON.stringify(answer.result, null, 2));
  });

  function show(element, state, text) {
    element.className = "result" + (state ? " " + state : "");
    element.dataset.state = state || "pending";
    element.textContent = text;
  }

  window.addEventListener("resize", draw);
  connect();
})();
