# What the page-embedding scripts (embed_report_assets.cmake,
# src/plan/embed_plan_html_assets.cmake) share, for `include()` in script
# mode: each file as a constexpr unsigned char array (no string literal, so
# no length limit), ending in a 0 byte that is not part of the text.
# AppendArray(<c++ name> <file>): appends the array to `body`.
function(AppendArray name path)
  file(READ ${path} hex HEX)
  file(READ ${path} text)
  string(TOLOWER "${text}" lower)
  foreach(bad "</script" "</style" "<!--")
    string(FIND "${lower}" "${bad}" at)
    if(NOT at EQUAL -1 AND NOT path MATCHES "\\.html$")
      message(FATAL_ERROR "${path} contains \"${bad}\", which would end its <script>/<style> in the page")
    endif()
  endforeach()
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  # 16 bytes a line (CMake's regex has no {n}).
  set(one "0x..,")
  string(REGEX REPLACE "(${one}${one}${one}${one}${one}${one}${one}${one}${one}${one}${one}${one}${one}${one}${one}${one})"
                       "\\1\n" bytes "${bytes}")
  set(body "${body}constexpr unsigned char ${name}[] = {\n${bytes}0x00};\n\n" PARENT_SCOPE)
endfunction()
