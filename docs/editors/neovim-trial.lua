-- A trial of `kapsulint server` in Neovim's own LSP client, headless, on a copy of
-- examples/production (Neovim 0.7 or later: vim.lsp.start_client):
--
--   cp -r examples/production /tmp/trial
--   KAPSULINT_TRIAL=/tmp/trial nvim --headless --clean -c "luafile docs/editors/neovim-trial.lua"
--
-- It prints what it saw and exits 1 when a step fails: KAP201 at the apps pool's header, its hover,
-- the quick fix applied (the buffer is then written beside the project as pools.tf.quick-fixed,
-- to compare with what `kapsulint --fix --unsafe-fixes` writes), KAP201 gone after it, KAP101 after
-- typing `delete_additional_resources = true` unsaved, and KAP204 after an unsaved change of the
-- node type's default in variables.tf.
local project = os.getenv("KAPSULINT_TRIAL") or error("set KAPSULINT_TRIAL to a copy of examples/production")
local command = os.getenv("KAPSULINT") or "kapsulint"
local failed = false
local function say(line) io.stdout:write(line .. "\n") end
local function check(ok, line) say((ok and "ok: " or "FAILED: ") .. line); failed = failed or not ok end

local client = vim.lsp.start_client({
  name = "kapsulint",
  cmd = { command, "server", "--stdio" },
  root_dir = project,
  init_options = { settings = { unsafeFixes = true } },
})
local function open(name)
  vim.cmd("edit " .. project .. "/" .. name)
  local buffer = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buffer, client)
  return buffer
end
local function find(buffer, code)
  for _, diagnostic in ipairs(vim.diagnostic.get(buffer)) do
    if diagnostic.code == code then return diagnostic end
  end
end
local function since(start) return math.floor((vim.loop.hrtime() - start) / 1e6) end

local cluster, variables, pools = open("cluster.tf"), open("variables.tf"), open("pools.tf")
vim.wait(30000, function() return find(pools, "KAP201") ~= nil end, 20)
local kap201 = find(pools, "KAP201")
check(kap201 ~= nil and kap201.lnum == 18 and kap201.col == 0, "KAP201 at pools.tf:19:1, the apps pool's header")
if kap201 ~= nil then
  local place = { textDocument = { uri = vim.uri_from_bufnr(pools) }, position = { line = kap201.lnum, character = kap201.col } }
  local hover = vim.lsp.buf_request_sync(pools, "textDocument/hover", place, 10000) or {}
  local shown = ""
  for _, answer in pairs(hover) do
    if answer.result then shown = answer.result.contents.value end
  end
  check(shown:find("# KAP201", 1, true) ~= nil, "hover shows the rule's documentation")
  local asked = {
    textDocument = place.textDocument,
    range = { start = place.position, ["end"] = { line = kap201.end_lnum, character = kap201.end_col } },
    context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(pools, kap201.lnum) },
  }
  local applied = false
  for _, answer in pairs(vim.lsp.buf_request_sync(pools, "textDocument/codeAction", asked, 10000) or {}) do
    for _, action in ipairs(answer.result or {}) do
      say("  code action: " .. action.title)
      if not applied and action.edit and action.title:find("lifecycle", 1, true) then
        vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
        applied = true
      end
    end
  end
  check(applied, "the quick fix is offered and applied")
  vim.wait(10000, function() return find(pools, "KAP201") == nil end, 20)
  check(find(pools, "KAP201") == nil, "KAP201 gone once the fix is applied (unsaved)")
  vim.api.nvim_buf_call(pools, function() vim.cmd("silent write! " .. project .. "/pools.tf.quick-fixed") end)
end

local start = vim.loop.hrtime()
local line = vim.api.nvim_buf_get_lines(cluster, 0, -1, false)
for number, text in ipairs(line) do
  if text:find("delete_additional_resources", 1, true) then
    vim.api.nvim_buf_set_lines(cluster, number - 1, number, false, { "  delete_additional_resources = true" })
  end
end
vim.wait(10000, function() return find(cluster, "KAP101") ~= nil end, 5)
check(find(cluster, "KAP101") ~= nil, "KAP101 after typing delete_additional_resources = true, unsaved (" .. since(start) .. " ms)")

start = vim.loop.hrtime()
for number, text in ipairs(vim.api.nvim_buf_get_lines(variables, 0, -1, false)) do
  if text:find('"PRO2-M"', 1, true) then
    vim.api.nvim_buf_set_lines(variables, number - 1, number, false, { (text:gsub('"PRO2%-M"', '"NOPE2-M"')) })
  end
end
vim.wait(10000, function() return find(variables, "KAP204") ~= nil end, 5)
check(find(variables, "KAP204") ~= nil,
      "KAP204 after the default of apps_node_type changed in variables.tf, unsaved (" .. since(start) .. " ms)")
check(vim.bo[cluster].modified and vim.bo[variables].modified, "nothing was saved")

vim.lsp.stop_client(client)
vim.cmd(failed and "cquit 1" or "qa!")
