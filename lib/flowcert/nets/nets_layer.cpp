// placeholder so the layer builds before its first model lands
namespace flowcert::nets {}
