#if __has_include(<lua5.4/lua.h>)
#  include <lua5.4/lua.h>
#  include <lua5.4/lauxlib.h>
#  include <lua5.4/lualib.h>
#elif __has_include(<lua.h>)
#  include <lua.h>
#  include <lauxlib.h>
#  include <lualib.h>
#else
#  error "Lua 5.4 headers not found: apt-get install -y liblua5.4-dev"
#endif
