-- An office and data-centre network map: zones as groups (internet edge, DMZ, office LAN,
-- server VLAN), devices inside them and the links between them with their protocols.
local flow = require "flow"

local s = flow.newStore{
  classes = {
    zone = { fill = "#f5f5f5", stroke = "#9e9e9e", dash = { 4, 3 } },
    device = { fill = "#e0f2f1", stroke = "#00695c" },
    host = { shape = "rectangle", fill = "#ffffff", stroke = "#607d8b" },
    cloud = { shape = "ellipse", fill = "#e1f5fe", stroke = "#0277bd" },
  },
}

local zones = { { "wan", "Internet edge" }, { "dmz", "DMZ" }, { "lan", "Office LAN" }, { "dc", "Server VLAN" } }
local devices = {
  { "isp1", "wan", "cloud", "ISP A" }, { "isp2", "wan", "cloud", "ISP B" },
  { "router", "wan", "device", "Edge router" }, { "fw", "dmz", "device", "Firewall" },
  { "proxy", "dmz", "host", "Reverse proxy" }, { "vpn", "dmz", "host", "VPN gateway" },
  { "core", "lan", "device", "Core switch" }, { "wifi", "lan", "device", "Wi-Fi controller" },
  { "ap1", "lan", "host", "AP floor 1" }, { "ap2", "lan", "host", "AP floor 2" },
  { "printers", "lan", "host", "Printers" }, { "dcsw", "dc", "device", "DC switch" },
  { "web1", "dc", "host", "web-01" }, { "web2", "dc", "host", "web-02" },
  { "db1", "dc", "host", "db-01" }, { "nas", "dc", "host", "Backup NAS" },
}
local links = {
  { "isp1", "router", "BGP" }, { "isp2", "router", "BGP" }, { "router", "fw", "10G" },
  { "fw", "proxy", "443" }, { "fw", "vpn", "IPsec" }, { "fw", "core", "trunk" },
  { "proxy", "dcsw", "8080" }, { "vpn", "core", "tunnel" }, { "core", "wifi", "VLAN 20" },
  { "wifi", "ap1", "PoE" }, { "wifi", "ap2", "PoE" }, { "core", "printers", "VLAN 30" },
  { "core", "dcsw", "LACP" }, { "dcsw", "web1" }, { "dcsw", "web2" }, { "dcsw", "db1" },
  { "db1", "nas", "rsync" },
}

s:transaction(function()
  for _, z in ipairs(zones) do s:addNode{ id = z[1], acceptsChildren = true, class = "zone", data = { label = z[2] } } end
  for _, d in ipairs(devices) do s:addNode{ id = d[1], parentID = d[2], class = d[3], data = { label = d[4] } } end
  for _, l in ipairs(links) do s:connect(l[1], l[2], { label = l[3] }) end
end)
s:layout{ direction = "TB" }
return s
