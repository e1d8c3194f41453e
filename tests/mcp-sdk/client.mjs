// The official MCP SDK's client against task-mcp: connect over stdio, list
// the tools, call every one of them, and print a transcript for the test to
// compare.  usage: node client.mjs TASK-MCP [ARG...]
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [command, ...args] = process.argv.slice(2);
const transport = new StdioClientTransport({ command, args, env: { ...process.env }, stderr: "inherit" });

// Watch the handshake on the wire: the version asked for and the one given.
const send = transport.send.bind(transport);
transport.send = async (msg) => {
  if (msg.method === "initialize") console.log(`client asks for ${msg.params.protocolVersion}`);
  return send(msg);
};
// The client hands the version it accepted to the transport.
transport.setProtocolVersion = (v) => console.log(`server answers ${v}`);

const client = new Client({ name: "agentcron-sdk-test", version: "1.0.0" });
await client.connect(transport);
const info = client.getServerVersion();
console.log(`server ${info.name} ${info.version}, tools capability: ${JSON.stringify(client.getServerCapabilities().tools)}`);

const { tools } = await client.listTools();
console.log(`${tools.length} tools: ${tools.map((t) => t.name).join(" ")}`);
for (const t of tools)
  if (t.inputSchema.type !== "object" || !t.description) console.log(`bad tool entry: ${t.name}`);

const ids = {};
const called = new Set();
const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
async function call(name, args, save) {
  called.add(name);
  const r = await client.callTool({ name, arguments: args });
  const text = r.content[0].text;
  if (save) ids[save] = text.match(uuid)[0];
  let line = text.split("\n")[0];
  for (const [k, v] of Object.entries(ids)) line = line.replaceAll(v, `<${k}>`);
  console.log(`${name} -> ${r.isError ? "error" : "ok"}: ${line.replace(new RegExp(uuid, "g"), "<uuid>")}`);
}

await call("task_create", { name: "SDK check", prompt: "Say hello", daily: "07:00" }, "a");
await call("task_list", { limit: 5 });
await call("task_show", { id: ids.a });
await call("task_update", { id: ids.a, daily: "08:00" });
await call("task_run", { id: ids.a });
await call("task_cancel", { id: ids.a });
await call("task_delete", { id: ids.a });
await call("task_show", { id: "xyz" });

await call("create_scheduled_task", { name: "Morning Briefing", prompt: "Brief me", schedule_type: "daily", hour: 7 }, "b");
await call("list_scheduled_tasks", {});
await call("update_scheduled_task", { task_id: ids.b, hour: 8 });
await call("run_scheduled_task", { task_id: ids.b });
await call("delete_scheduled_task", { task_id: ids.b });

const common = { system_prompt: "You are a software developer", attachments: [], dedicated_context: true };
await call("scheduler:create_scheduled_task", { name: "XXX", prompt: "Report", schedule: { minute: "*/20", hour: "*", day: "*", month: "*", weekday: "*" }, ...common }, "c");
await call("scheduler:create_adhoc_task", { name: "YYY", prompt: "On demand", ...common }, "d");
await call("scheduler:create_planned_task", { name: "ZZZ", prompt: "Twice", plan: ["2026-03-02T18:25:00", "2026-03-03T18:25:00"], ...common }, "e");
await call("scheduler:list_tasks", { type: ["planned"] });
await call("scheduler:show_task", { uuid: ids.c });
await call("scheduler:run_task", { uuid: ids.d });
await call("scheduler:delete_task", { uuid: ids.e });

await call("schedule_task", { description: "Morning summary", prompt: "Summarise", cron: "0 9 * * *" }, "f");
await call("list_tasks", { status: "PENDING" });
await call("cancel_task", { id: ids.f });

await call("scheduler.create", { intent: "weekly_report", cron: "0 9 * * 1", message: "Generate weekly summary", channel_name: "report-channel" }, "g");
await call("scheduler.list", {});
await call("scheduler.update", { job_id: ids.g, cron: "0 10 * * 1" });
await call("scheduler.cancel", { job_id: ids.g });

await call("scheduleAgentTask", { taskPayload: "Remind me to call Sarah", timeExpression: "in 1 hour", humanReadableDescription: "Call Sarah reminder" });

const missed = tools.map((t) => t.name).filter((n) => !called.has(n));
console.log(missed.length ? `never called: ${missed.join(" ")}` : "every listed tool was called");

try {
  await client.callTool({ name: "no_such_tool", arguments: {} });
  console.log("an unknown tool did not fail");
} catch (e) {
  console.log(`unknown tool -> ${e.constructor.name} ${e.code}`);
}
await client.ping();
console.log("ping ok");
await client.close();
