-- A login flow with password, two-factor authentication and lock-out, as a product team
-- would sketch it before building the screens.
local flow = require "flow"

local s = flow.newStore{
  classes = {
    screen = { fill = "#e3f2fd", stroke = "#1565c0" },
    check = { shape = "diamond", fill = "#fff8e1", stroke = "#b8860b" },
    endpoint = { shape = "stadium", fill = "#e8f5e9", stroke = "#2e7d32" },
    store = { shape = "cylinder", fill = "#eeeeff", stroke = "#555599" },
  },
}

local nodes = {
  { "open", "endpoint", "Open app" }, { "session", "check", "Valid session?" },
  { "form", "screen", "Login form" }, { "users", "store", "User DB" },
  { "password", "check", "Password ok?" }, { "attempts", "check", "5 failures?" },
  { "locked", "screen", "Account locked" }, { "mfa", "check", "2FA enabled?" },
  { "otp", "screen", "Enter code" }, { "codeok", "check", "Code valid?" },
  { "reset", "screen", "Reset password" }, { "mail", "screen", "Email link" },
  { "home", "endpoint", "Home screen" },
}
local flows = {
  { "open", "session" }, { "session", "home", "yes" }, { "session", "form", "no" },
  { "form", "password", "submit" }, { "password", "users", "lookup" },
  { "password", "mfa", "yes" }, { "password", "attempts", "no" },
  { "attempts", "form", "no, try again" }, { "attempts", "locked", "yes" },
  { "locked", "reset", "forgot?" }, { "form", "reset", "forgot?" }, { "reset", "mail", "send" },
  { "mail", "form", "new password" }, { "mfa", "otp", "yes" }, { "mfa", "home", "no" },
  { "otp", "codeok" }, { "codeok", "home", "yes" }, { "codeok", "otp", "no, resend" },
}

s:transaction(function()
  for _, n in ipairs(nodes) do s:addNode{ id = n[1], class = n[2], data = { label = n[3] } } end
  for _, f in ipairs(flows) do s:connect(f[1], f[2], { label = f[3] }) end
end)
s:layout{ direction = "TB" }
return s
