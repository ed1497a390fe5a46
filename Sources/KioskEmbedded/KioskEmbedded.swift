// KioskEmbedded — deprecated: the test doubles' module is KioskTestDoubles now (the old name read
// as code for embedded boards). This module only re-exports it, so that `import KioskEmbedded`
// keeps building; it goes away in 0.2.0 at the earliest. Write `import KioskTestDoubles`.
@_exported import KioskTestDoubles
