extension KernelSockets {
    // Added to the seam after its first release: the real system's behaviour for a conformer
    // written before it (a fake records the call by implementing it).
    public func listenUnixAbstract(_ name: String, backlog: Int32) throws(SysError) -> Int32 {
        try unixAbstractListener(name, backlog: backlog).rawValue
    }
}
