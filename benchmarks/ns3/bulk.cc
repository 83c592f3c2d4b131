// ns-3's side of the link benchmark (BRIEF §6: the event-driven simulator at least 100x faster than ns-3 on the same
// bulk transfer): one TCP bulk transfer over a 1.5 Mb/s point-to-point link, 1 ms one way, a DropTail buffer of 20
// packets, i.i.d. packet losses on the data path, 1024-byte packets on the wire (183.1 a second, as benches/link.rs).
// Prints the simulated seconds, the packets the receiver got in order and the CPU seconds the run took, so that
// benchmarks/ns3_ratio.py can time it in alternation with tcpfade's run of the same scenario.
//
// Built as an ns-3 scratch program with an optimized ns-3 (benchmarks/ns3_ratio.py says how), then
//   ./ns3.46-bulk-optimized --variant=newreno --sack=0 --seconds=300 --loss=0.013
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <ctime>
#include <iostream>

using namespace ns3;

int main(int argc, char* argv[]) {
    std::string variant = "newreno";
    bool sack = false;
    double seconds = 2000.0;
    double loss = 0.013;
    uint32_t seed = 1;
    CommandLine cmd;
    cmd.AddValue("variant", "newreno or cubic", variant);
    cmd.AddValue("sack", "SACK on (1) or off (0)", sack);
    cmd.AddValue("seconds", "simulated seconds", seconds);
    cmd.AddValue("loss", "i.i.d. packet loss rate on the data path", loss);
    cmd.AddValue("seed", "run number of the random stream", seed);
    cmd.Parse(argc, argv);
    RngSeedManager::SetRun(seed);

    // 1024 bytes on the wire: 2 of PPP, 20 of IP, 32 of TCP with the timestamp option, 970 of payload.
    const uint32_t payload = 970;
    Config::SetDefault("ns3::TcpL4Protocol::SocketType",
                       StringValue(variant == "cubic" ? "ns3::TcpCubic" : "ns3::TcpNewReno"));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(payload));
    // ns-3's default socket buffers (128 KiB each): its send buffer is a list of packets, walked per segment sent, so a
    // larger one costs it time in proportion to its length.
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(sack));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(1));

    NodeContainer nodes;
    nodes.Create(2);
    PointToPointHelper link;
    link.SetDeviceAttribute("DataRate", StringValue("1.5Mbps"));
    link.SetChannelAttribute("Delay", StringValue("1ms"));
    link.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("20p"));
    NetDeviceContainer devices = link.Install(nodes);
    Ptr<RateErrorModel> errors = CreateObject<RateErrorModel>();
    errors->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
    errors->SetRate(loss);
    devices.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(errors));

    InternetStackHelper stack;
    stack.Install(nodes);
    Ipv4AddressHelper address;
    address.SetBase("10.1.1.0", "255.255.255.0");
    Ipv4InterfaceContainer interfaces = address.Assign(devices);
    // No queueing discipline above the device (Assign installed one): the device's 20 packets are the buffer.
    TrafficControlHelper tch;
    tch.Uninstall(devices);

    const uint16_t port = 5001;
    BulkSendHelper source("ns3::TcpSocketFactory", InetSocketAddress(interfaces.GetAddress(1), port));
    source.SetAttribute("MaxBytes", UintegerValue(0));
    ApplicationContainer sources = source.Install(nodes.Get(0));
    sources.Start(Seconds(0.0));
    PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sinks = sink.Install(nodes.Get(1));
    sinks.Start(Seconds(0.0));

    Simulator::Stop(Seconds(seconds));
    std::clock_t start = std::clock();
    Simulator::Run();
    double cpu = double(std::clock() - start) / CLOCKS_PER_SEC;
    uint64_t bytes = DynamicCast<PacketSink>(sinks.Get(0))->GetTotalRx();
    Simulator::Destroy();
    std::cout << "seconds " << seconds << " delivered " << bytes / payload << " cpu " << cpu << std::endl;
    return 0;
}
